#!/usr/bin/env node
// `npm start`: install, build what changed, then run `llmgw dev` until Ctrl-C.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT, ensureInstalled, ensureWebBuilt } from "./ensure.mjs";

const args = process.argv.slice(2);
ensureInstalled();
// Without the console (`npm start -- --no-web`) there is nothing to build.
if (!args.includes("--no-web")) ensureWebBuilt();
const child = spawn(process.execPath, [join(ROOT, "packages/cli/bin/llmgw.mjs"), "dev", ...args], {
  cwd: ROOT,
  stdio: "inherit",
});
// The terminal's Ctrl-C reaches the whole process group; this covers a SIGTERM sent to us alone.
// npm passes a SIGTERM on to the shell it runs this script in, which dies without passing it
// further; the script is `exec`ed (package.json) so the signal lands here instead.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
// Should whatever started us go away without a signal reaching us (npm killed, a shell in
// between), being left an orphan is taken as the same request to stop, engines and all.
const parentPid = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid === parentPid) return;
  clearInterval(orphanWatch);
  child.kill("SIGTERM");
}, 1_000);
orphanWatch.unref();
child.on("exit", (code) => process.exit(code ?? 0));
