// One router per domain. Procedure keys read `domain.verb`.
import { auditRouter } from "./routers/audit";
import { authRouter } from "./routers/auth";
import { eventsRouter } from "./routers/events";
import { keysRouter } from "./routers/keys";
import { logsRouter } from "./routers/logs";
import { mcpRouter } from "./routers/mcp";
import { modelsRouter } from "./routers/models";
import { nodesRouter } from "./routers/nodes";
import { groupsRouter, orgRouter, peopleRouter, rolesRouter } from "./routers/people";
import { reclaimRouter } from "./routers/reclaim";
import { replicasRouter } from "./routers/replicas";
import { signInRouter } from "./routers/sign-in";
import { statusRouter } from "./routers/status";
import { usageRouter } from "./routers/usage";
import { router } from "./trpc";

export const appRouter = router({
  auth: authRouter,
  nodes: nodesRouter,
  models: modelsRouter,
  replicas: replicasRouter,
  status: statusRouter,
  logs: logsRouter,
  reclaim: reclaimRouter,
  keys: keysRouter,
  usage: usageRouter,
  events: eventsRouter,
  people: peopleRouter,
  groups: groupsRouter,
  org: orgRouter,
  roles: rolesRouter,
  audit: auditRouter,
  signIn: signInRouter,
  mcp: mcpRouter,
});

export type AppRouter = typeof appRouter;
