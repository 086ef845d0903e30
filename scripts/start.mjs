#!/usr/bin/env node
// `npm start`: install, build what changed, then run `llmgw dev` until Ctrl-C.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT, ensureInstalled, ensureWebBuilt } from "./ensure.mjs";

ensureInstalled();
ensureWebBuilt();
const child = spawn(
  process.execPath,
  [join(ROOT, "packages/cli/bin/llmgw.mjs"), "dev", ...process.argv.slice(2)],
  {
    cwd: ROOT,
    stdio: "inherit",
  },
);
// The terminal's Ctrl-C reaches the whole process group; this covers a SIGTERM sent to us alone.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
