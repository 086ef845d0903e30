// Whether the signed-in operator may change the catalog. The shell already loaded auth.me, so this
// reads the same cache entry; the control plane still enforces the rule (FORBIDDEN) on every write.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc/react";

export function useCanWrite(): boolean {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { staleTime: 30_000 }));
  const role = me.data?.role;
  return role === "admin" || role === "operator";
}

/** Only admins may change what a model's replicas use (cards, context, CPU and memory). */
export function useIsAdmin(): boolean {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { staleTime: 30_000 }));
  return me.data?.role === "admin";
}
