// The tRPC instance and the procedure builders every router uses.
import { initTRPC, TRPCError } from "@trpc/server";
import { z, ZodError } from "zod";
import { atLeast, holdsOn, type RoleName } from "@llmgw/domain";
import { ServiceError, type ApiContext, type ApiServices } from "./context";
import type { UserView } from "./auth/schemas";
import { maskInternalError } from "./internal-errors";
import { RetryLaterError } from "./retry-later";
import { inputRefusal } from "./text";

const t = initTRPC.context<ApiContext>().create({
  errorFormatter({ shape, error }) {
    if (error.code === "INTERNAL_SERVER_ERROR") return maskInternalError(shape, error);
    const zodIssues = error.cause instanceof ZodError ? error.cause.issues : null;
    const zodLines = zodIssues ? zodIssues.map(formatIssue) : null;
    // Each line of a refusal travels on its own, so the CLI and the console can list them.
    const details = error.cause instanceof ServiceError ? error.cause.details : (zodLines ?? []);
    // The code and names of a refusal, so the console can say it in the operator's language.
    const refusal =
      error.cause instanceof ServiceError || error.cause instanceof RetryLaterError
        ? error.cause.refusal
        : null;
    return {
      ...shape,
      message: zodLines ? zodLines.join("; ") : shape.message,
      data: { ...shape.data, stack: undefined, zodIssues, details, refusal },
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
  forbidden: "FORBIDDEN",
  unauthorized: "UNAUTHORIZED",
} as const satisfies Record<ServiceError["kind"], TRPCError["code"]>;

function toTRPCError(error: ServiceError): TRPCError {
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
  if (!result.ok && result.error.cause instanceof RetryLaterError)
    throw new TRPCError({
      code: "TOO_MANY_REQUESTS",
      message: result.error.cause.message,
      cause: result.error.cause,
    });
  return result;
});

/** No control character (NUL above all) reaches a schema, a service or the database. */
const refuseControlCharacters = t.middleware(async ({ getRawInput, next }) => {
  let rawInput: unknown;
  try {
    rawInput = await getRawInput();
  } catch {
    // A body that does not parse is refused by the input parser of a procedure that takes input;
    // one that takes none (a mutation the client sends with an empty body) never reads it.
    return next();
  }
  const refusal = inputRefusal(rawInput);
  if (refusal) throw new TRPCError({ code: "BAD_REQUEST", message: refusal });
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(refuseControlCharacters).use(mapServiceErrors);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) {
    throw new ServiceError("unauthorized", "sign in first: no valid session", {
      code: "auth.no_session",
    });
  }
  return next({ ctx: { ...ctx, user: ctx.user, actor: { username: ctx.user.username } } });
});

const NEEDS = {
  "role.needs_operator": "an admin or operator",
  "role.needs_owner_operator": "an admin, or an operator of the owner",
  "role.needs_admin": "an admin",
} as const;

function forbid(user: UserView, code: keyof typeof NEEDS): never {
  throw new ServiceError(
    "forbidden",
    `"${user.username}" has the ${user.role} role, which ${user.role === "viewer" ? "may only look" : "cannot do this"}; this needs ${NEEDS[code]}`,
    { code, params: { username: user.username, role: user.role } },
  );
}

/** Changes to the cluster: admins and operators only; viewers may look but not touch. */
export const operatorProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!atLeast(ctx.user.role, "operator")) forbid(ctx.user, "role.needs_operator");
  return next({ ctx });
});

/**
 * Changes to owned things (keys): an operator anywhere, on the cluster or on an org, team or
 * project. The procedure then checks the owner itself with `requireOn`.
 */
export const ownerOperatorProcedure = authedProcedure.use(({ ctx, next }) => {
  const somewhere =
    atLeast(ctx.user.role, "operator") || ctx.user.grants.some((g) => atLeast(g.role, "operator"));
  if (!somewhere) forbid(ctx.user, "role.needs_owner_operator");
  return next({ ctx });
});

/** People, groups, roles, sign-in setup and the audit log: admins only. */
export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "admin") forbid(ctx.user, "role.needs_admin");
  return next({ ctx });
});

/** Refuses unless the person holds `role` on `owner` (through the ownership tree). */
export async function requireOn(
  ctx: { user: UserView; services: ApiContext["services"] },
  role: RoleName,
  owner: string,
): Promise<void> {
  const chain = await ctx.services.ownership.chain(owner);
  if (!holdsOn(ctx.user, role, chain)) {
    throw new ServiceError(
      "forbidden",
      `"${ctx.user.username}" is not ${role === "admin" ? "an admin" : `an ${role}`} of ${owner}; an admin can grant it (llmgw ctl roles grant)`,
      { code: "role.not_on_owner", params: { username: ctx.user.username, role, owner } },
    );
  }
}

/** What a change that has nothing else to say answers. */
export async function answerOk(change: Promise<unknown>): Promise<{ ok: true }> {
  await change;
  return { ok: true };
}

/**
 * A query that answers a list from one service call, checked against `item`: most domains have
 * one, and anyone signed in may look unless `procedure` says otherwise.
 */
export function listQuery<Item extends z.ZodType>(
  item: Item,
  load: (services: ApiServices) => Promise<z.input<Item>[]>,
  procedure: typeof authedProcedure = authedProcedure,
) {
  return procedure.output(z.array(item)).query(({ ctx }) => load(ctx.services));
}
