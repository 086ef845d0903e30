#!/usr/bin/env node
// Runs the simulator on its own (`llmgw sim-engine` does the same through the CLI). Sources are
// TypeScript run through tsx, because Node 20 cannot strip types itself.
import { register } from "tsx/esm/api";

register();
const { runSimEngine } = await import("../src/run-sim-engine.ts");
process.exitCode = await runSimEngine(process.argv.slice(2));
