// One router per domain. Procedure keys read `domain.verb`.
import { authRouter } from "./routers/auth";
import { nodesRouter } from "./routers/nodes";
import { router } from "./trpc";

export const appRouter = router({
  auth: authRouter,
  nodes: nodesRouter,
});

export type AppRouter = typeof appRouter;
