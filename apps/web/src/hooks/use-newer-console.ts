// True once the console answering now is another build than the one that served this page (an
// upgrade happened while the tab stayed open): the page's scripts may then ask for files the new
// console no longer has, so the shell offers a reload instead of waiting for something to break.
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { useConsoleBuild } from "../components/app-runtime";
import { CONSOLE_VERSION_PATH } from "../lib/api-paths";

const CHECK_INTERVAL_MS = 60_000;
/** The console's own query, which says nothing about whether the control plane answers. */
export const CONSOLE_VERSION_QUERY_KEY = ["console-version"] as const;
const versionSchema = z.object({ build: z.string() });

async function runningBuild(): Promise<string> {
  const response = await fetch(CONSOLE_VERSION_PATH, { cache: "no-store" });
  if (!response.ok) throw new Error(`${CONSOLE_VERSION_PATH} answered ${response.status}`);
  return versionSchema.parse(await response.json()).build;
}

export function useNewerConsole(): boolean {
  const build = useConsoleBuild();
  const running = useQuery({
    queryKey: CONSOLE_VERSION_QUERY_KEY,
    queryFn: runningBuild,
    refetchInterval: CHECK_INTERVAL_MS,
    // Also asked when the window comes back to the front: the usual moment after an upgrade.
    refetchOnWindowFocus: true,
    retry: false,
  });
  return running.data !== undefined && running.data !== build;
}
