// The guard: policies read prompts, answers and MCP tool traffic. Administrators only: a policy
// decides what every covered caller may send and read.
import { guardPolicySchema } from "@llmgw/domain";
import { z } from "zod";
import {
  guardJudgeCheckInputSchema,
  guardJudgeCheckSchema,
  guardPolicyNameInputSchema,
  guardPolicyViewSchema,
} from "./schemas";
import { adminProcedure, listQuery, router } from "../trpc";

const policiesRouter = router({
  list: listQuery(
    guardPolicyViewSchema,
    (services) => services.guard.listPolicies(),
    adminProcedure,
  ),
  add: adminProcedure
    .input(guardPolicySchema)
    .output(guardPolicyViewSchema)
    .mutation(({ ctx, input }) => ctx.services.guard.addPolicy(input, ctx.actor)),
  remove: adminProcedure
    .input(guardPolicyNameInputSchema)
    .output(z.object({ name: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.guard.removePolicy(input.name, ctx.actor)),
});

const judgeRouter = router({
  check: adminProcedure
    .input(guardJudgeCheckInputSchema)
    .output(guardJudgeCheckSchema)
    .mutation(({ ctx, input }) => ctx.services.guard.checkJudge(input)),
});

export const guardRouter = router({ policies: policiesRouter, judge: judgeRouter });
