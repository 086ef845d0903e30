// The bench's PostgreSQL at the bench's own priority. The bench is run in a session of its own
// with its autogroup raised (`echo -15 > /proc/self/autogroup`), but `pg_ctl` starts the server in
// another session, whose autogroup stays at nice 0 and competes with the machine's whole load: at
// load 16 to 20 on 2 cores the same write took 2.8 s in one run and 0.6 s in the next. When the
// bench runs as root with a raised autogroup, the postmaster's autogroup (its backends share it)
// is given the same value. Nothing else starts PostgreSQL this way: CI and the tests are untouched.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { messageOf } from "@llmgw/domain";
import { autogroupNice, setAutogroupNice } from "@llmgw/testing";

/**
 * Raises the autogroup of the postmaster of `dataDir` to this process's when this one is raised
 * and runs as root; returns a sentence for the bench's log saying what was done or why not.
 */
export function matchPostgresPriority(dataDir: string): string {
  try {
    const own = autogroupNice("self");
    if (own === undefined || own >= 0)
      return `PostgreSQL left at its own priority (bench at nice ${own ?? "?"})`;
    if (process.getuid?.() !== 0)
      return "PostgreSQL left at its own priority (the bench is not root)";
    const pid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    const refused = setAutogroupNice(pid, own);
    if (refused !== undefined) return `PostgreSQL left at its own priority (${refused})`;
    const now = autogroupNice(pid);
    return `PostgreSQL's autogroup (postmaster ${pid}) raised to nice ${now ?? "?"}, as the bench's`;
  } catch (error) {
    return `PostgreSQL left at its own priority (${messageOf(error)})`;
  }
}
