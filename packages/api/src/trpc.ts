// The tRPC instance and the procedure builders every router uses.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { ServiceError, type ApiContext } from "./context";

const t = initTRPC.context<ApiContext>().create({
  errorFormatter({ shape, error }) {
    const zodIssues = error.cause instanceof ZodError ? error.cause.issues : null;
    const zodLines = zodIssues ? zodIssues.map(formatIssue) : null;
    // Each line of a refusal travels on its own, so the CLI and the console can list them.
    const details = error.cause instanceof ServiceError ? error.cause.details : (zodLines ?? []);
    return {
      ...shape,
      message: zodLines ? zodLines.join("; ") : shape.message,
      data: { ...shape.data, stack: undefined, zodIssues, details },
    };
  },
});

function formatIssue(issue: { path: PropertyKey[]; message: string }): string {
  const where = issue.path.map(String).join(".");
  return where ? `${where}: ${issue.message}` : issue.message;
}

const SERVICE_ERROR_CODES = {
  invalid: "BAD_REQUEST",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  unavailable: "PRECONDITION_FAILED",
} as const satisfies Record<ServiceError["kind"], TRPCError["code"]>;

export function toTRPCError(error: ServiceError): TRPCError {
  return new TRPCError({
    code: SERVICE_ERROR_CODES[error.kind],
    message: error.message,
    cause: error,
  });
}

/** Services refuse with ServiceError; callers see the matching tRPC code and the same sentence. */
const mapServiceErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof ServiceError)
    throw toTRPCError(result.error.cause);
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapServiceErrors);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first: no valid session" });
  }
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Changes to the cluster: admins and operators only; viewers may look but not touch. */
export const operatorProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "admin" && ctx.user.role !== "operator") {
    throw new TRPCError({
      code: "FORBIDDEN",
      message: `"${ctx.user.username}" has the ${ctx.user.role} role, which may only look; this needs an admin or operator`,
    });
  }
  return next({ ctx: { ...ctx, actor: { username: ctx.user.username } } });
});

/** Administrators only: MCP credentials and grants reach past the cluster itself. */
export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "admin") {
    throw new TRPCError({
      code: "FORBIDDEN",
      message: `"${ctx.user.username}" has the ${ctx.user.role} role; this needs an admin`,
    });
  }
  return next({ ctx: { ...ctx, actor: { username: ctx.user.username } } });
});
