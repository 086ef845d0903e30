// True only after hydration. The console renders nothing user-visible on the server, because the
// language and theme live in localStorage and a server-rendered English page would flash first.
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
