// Whether the control plane answers, read from every query the console makes (no extra request),
// and while it does not, asking again every few seconds so the console reconnects by itself.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import {
  INITIAL_CONNECTION,
  nextConnectionState,
  type ConnectionState,
} from "../lib/pwa/connection";
import { CONSOLE_VERSION_QUERY_KEY } from "./use-newer-console";

const RECONNECT_INTERVAL_MS = 5000;

export function useConnection(): ConnectionState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ConnectionState>(() => {
    const times = queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => query.queryKey[0] !== CONSOLE_VERSION_QUERY_KEY[0])
      .map((query) => query.state.dataUpdatedAt)
      .filter((at) => at > 0);
    return { ...INITIAL_CONNECTION, lastDataAt: times.length > 0 ? Math.max(...times) : null };
  });

  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== "updated") return;
        if (event.query.queryKey[0] === CONSOLE_VERSION_QUERY_KEY[0]) return;
        const { action } = event;
        if (action.type === "success")
          setState((s) => nextConnectionState(s, { kind: "success", at: Date.now() }));
        else if (action.type === "error")
          setState((s) => nextConnectionState(s, { kind: "error", error: action.error }));
      }),
    [queryClient],
  );

  useEffect(() => {
    if (state.reachable) return;
    const retry = () => void queryClient.refetchQueries({ type: "active" });
    const timer = setInterval(retry, RECONNECT_INTERVAL_MS);
    window.addEventListener("online", retry);
    return () => {
      clearInterval(timer);
      window.removeEventListener("online", retry);
    };
  }, [state.reachable, queryClient]);

  return state;
}
