// One router per domain. Procedure keys read `domain.verb`.
import { auditRouter } from "./audit/router";
import { authRouter } from "./auth/router";
import { doctorRouter } from "./doctor/router";
import { eventsRouter } from "./events/router";
import { fabricRouter } from "./fabric/router";
import { exploreRouter } from "./explore/router";
import { facilityRouter } from "./facility/router";
import { guardRouter } from "./guard/router";
import { federationRouter } from "./federation/router";
import { joinTokensRouter } from "./join-tokens/router";
import { keysRouter } from "./keys/router";
import { logsRouter } from "./logs/router";
import { mcpRouter } from "./mcp/router";
import { mirrorsRouter } from "./mirrors/router";
import { modelsRouter } from "./models/router";
import { nodesRouter } from "./nodes/router";
import { groupsRouter, orgRouter, peopleRouter, rolesRouter } from "./people/router";
import { quotasRouter } from "./quotas/router";
import { reclaimRouter } from "./reclaim/router";
import { releasesRouter } from "./releases/router";
import { controlPlanesRouter } from "./control-planes/router";
import { replicasRouter } from "./replicas/router";
import { signInRouter } from "./sign-in/router";
import { statusRouter } from "./status/router";
import { upgradeRouter } from "./upgrade/router";
import { usageRouter } from "./usage/router";
import { router } from "./trpc";

export const appRouter = router({
  auth: authRouter,
  nodes: nodesRouter,
  models: modelsRouter,
  replicas: replicasRouter,
  status: statusRouter,
  logs: logsRouter,
  doctor: doctorRouter,
  fabric: fabricRouter,
  reclaim: reclaimRouter,
  releases: releasesRouter,
  controlPlanes: controlPlanesRouter,
  quotas: quotasRouter,
  upgrade: upgradeRouter,
  keys: keysRouter,
  joinTokens: joinTokensRouter,
  usage: usageRouter,
  events: eventsRouter,
  people: peopleRouter,
  groups: groupsRouter,
  org: orgRouter,
  roles: rolesRouter,
  audit: auditRouter,
  signIn: signInRouter,
  mcp: mcpRouter,
  explore: exploreRouter,
  facility: facilityRouter,
  guard: guardRouter,
  federation: federationRouter,
  mirrors: mirrorsRouter,
});

export type AppRouter = typeof appRouter;
