#!/usr/bin/env node
// The one command: `llmgw server|agent|web|ctl|dev`. Sources are TypeScript run through tsx,
// because Node 20 cannot strip types itself.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
