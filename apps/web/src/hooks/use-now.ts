// A clock for relative times ("3 seconds ago"); it ticks on its own because a refetch that
// returns identical data does not re-render, yet the age keeps growing.
import { useEffect, useState } from "react";

export function useNow(intervalMs = 1000): number {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNowMs(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return nowMs;
}
