// Secrets a command sends to the server (MCP credentials, provider keys) are read from a file,
// never taken on the command line, where the shell's history and `ps` would keep them.
import { readFileSync } from "node:fs";
import { messageOf } from "@llmgw/domain";
import { UsageError } from "./args";

export function readSecretFile(flag: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (error) {
    throw new UsageError(`--${flag} ${path}: ${messageOf(error)}`);
  }
  if (!text) throw new UsageError(`--${flag} ${path} is empty`);
  return text;
}
