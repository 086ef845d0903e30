// One router per domain. Procedure keys read `domain.verb`.
import { authRouter } from "./routers/auth";
import { keysRouter } from "./routers/keys";
import { logsRouter } from "./routers/logs";
import { mcpRouter } from "./routers/mcp";
import { modelsRouter } from "./routers/models";
import { nodesRouter } from "./routers/nodes";
import { reclaimRouter } from "./routers/reclaim";
import { replicasRouter } from "./routers/replicas";
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
  mcp: mcpRouter,
});

export type AppRouter = typeof appRouter;
