// The tRPC instance and the procedure builders every router uses.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { ApiContext } from "./context";

const t = initTRPC.context<ApiContext>().create({
  errorFormatter({ shape, error }) {
    const zodIssues = error.cause instanceof ZodError ? error.cause.issues : null;
    return {
      ...shape,
      message: zodIssues ? zodIssues.map(formatIssue).join("; ") : shape.message,
      data: { ...shape.data, stack: undefined, zodIssues },
    };
  },
});

function formatIssue(issue: { path: PropertyKey[]; message: string }): string {
  const where = issue.path.map(String).join(".");
  return where ? `${where}: ${issue.message}` : issue.message;
}

export const router = t.router;
export const publicProcedure = t.procedure;

export const authedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first: no valid session" });
  }
  return next({ ctx: { ...ctx, user: ctx.user } });
});
