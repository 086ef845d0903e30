// MCP gateway administration: servers and tool grants. Administrators only: a server's
// credential reaches whatever it guards, and a grant hands that reach on.
import { z } from "zod";
import {
  mcpAddServerInputSchema,
  mcpGrantInputSchema,
  mcpGrantListInputSchema,
  mcpGrantViewSchema,
  mcpOpenInputSchema,
  mcpReplaceCredentialInputSchema,
  mcpRevokeInputSchema,
  mcpServerNameInputSchema,
  mcpServerViewSchema,
  mcpTestResultSchema,
  mcpUpdateServerInputSchema,
} from "./schemas";
import { adminProcedure, listQuery, router } from "../trpc";

const serversRouter = router({
  list: listQuery(mcpServerViewSchema, (services) => services.mcp.listServers(), adminProcedure),
  add: adminProcedure
    .input(mcpAddServerInputSchema)
    .output(mcpServerViewSchema)
    .mutation(({ ctx, input }) => ctx.services.mcp.addServer(input, ctx.actor)),
  update: adminProcedure
    .input(mcpUpdateServerInputSchema)
    .output(mcpServerViewSchema)
    .mutation(({ ctx, input }) => ctx.services.mcp.updateServer(input, ctx.actor)),
  remove: adminProcedure
    .input(mcpServerNameInputSchema)
    .output(z.object({ name: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.mcp.removeServer(input.name, ctx.actor)),
  test: adminProcedure
    .input(mcpServerNameInputSchema)
    .output(mcpTestResultSchema)
    .mutation(({ ctx, input }) => ctx.services.mcp.testServer(input.name)),
  enable: adminProcedure
    .input(mcpServerNameInputSchema)
    .output(mcpServerViewSchema)
    .mutation(({ ctx, input }) => ctx.services.mcp.setEnabled(input.name, true, ctx.actor)),
  disable: adminProcedure
    .input(mcpServerNameInputSchema)
    .output(mcpServerViewSchema)
    .mutation(({ ctx, input }) => ctx.services.mcp.setEnabled(input.name, false, ctx.actor)),
  replaceCredential: adminProcedure
    .input(mcpReplaceCredentialInputSchema)
    .output(mcpServerViewSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.mcp.replaceCredential(input.name, input.credential, ctx.actor),
    ),
});

const grantsRouter = router({
  list: adminProcedure
    .input(mcpGrantListInputSchema)
    .output(z.array(mcpGrantViewSchema))
    .query(({ ctx, input }) => ctx.services.mcp.listGrants(input)),
  grant: adminProcedure
    .input(mcpGrantInputSchema)
    .output(z.array(mcpGrantViewSchema))
    .mutation(({ ctx, input }) => ctx.services.mcp.grant(input, ctx.actor)),
  revoke: adminProcedure
    .input(mcpRevokeInputSchema)
    .output(z.array(mcpGrantViewSchema))
    .mutation(({ ctx, input }) => ctx.services.mcp.revoke(input, ctx.actor)),
  open: adminProcedure
    .input(mcpOpenInputSchema)
    .output(z.array(mcpGrantViewSchema))
    .mutation(({ ctx, input }) => ctx.services.mcp.open(input.subject, input.server, ctx.actor)),
});

export const mcpRouter = router({ servers: serversRouter, grants: grantsRouter });
