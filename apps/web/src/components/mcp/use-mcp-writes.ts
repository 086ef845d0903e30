// Every change on /admin/mcp goes through one of these; each refreshes the server list at once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/react";

export function useMcpWrites() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.mcp.pathKey() });
  const options = { onSettled: refresh };
  return {
    add: useMutation(trpc.mcp.servers.add.mutationOptions(options)),
    update: useMutation(trpc.mcp.servers.update.mutationOptions(options)),
    remove: useMutation(trpc.mcp.servers.remove.mutationOptions(options)),
    enable: useMutation(trpc.mcp.servers.enable.mutationOptions(options)),
    disable: useMutation(trpc.mcp.servers.disable.mutationOptions(options)),
    replaceCredential: useMutation(trpc.mcp.servers.replaceCredential.mutationOptions(options)),
    test: useMutation(trpc.mcp.servers.test.mutationOptions()),
    grant: useMutation(trpc.mcp.grants.grant.mutationOptions(options)),
    revoke: useMutation(trpc.mcp.grants.revoke.mutationOptions(options)),
    open: useMutation(trpc.mcp.grants.open.mutationOptions(options)),
  };
}

export type McpWrites = ReturnType<typeof useMcpWrites>;

/** "a, b,c" → ["a", "b", "c"]. */
export function splitList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** An empty field clears a number; anything else must be a whole number. */
export function optionalNumber(text: string): number | null {
  return text.trim() === "" ? null : Number(text.trim());
}
