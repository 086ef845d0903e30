// The command table of `llmgw ctl`, and the usage text made from it.
import { clusterCommands } from "./cluster";
import type { Command } from "./command";
import { eventCommands } from "./events";
import { identityCommands } from "./identity";
import { keyCommands } from "./keys";
import { mcpCommands } from "./mcp";
import { modelCommands } from "./models";
import { sessionCommands } from "./session";
import { usageCommands } from "./usage";

export const COMMANDS: Readonly<Record<string, Command>> = {
  ...sessionCommands,
  ...modelCommands,
  ...clusterCommands,
  ...keyCommands,
  ...usageCommands,
  ...eventCommands,
  ...identityCommands,
  ...mcpCommands,
};

const USAGE_COLUMN_MAX = 64;

export function usageText(): string {
  const entries = Object.values(COMMANDS).flatMap((command) =>
    command.usage
      .split(" | ")
      .map(
        (usage, index) =>
          [
            index === 0 ? usage : `${command.usage.split(" ")[0]} ${usage}`,
            index === 0 ? command.summary : "",
          ] as const,
      ),
  );
  // A very long usage line would push every description off the screen: such a line gets its
  // description on the next line, and the column is as wide as the others need.
  const isLong = (usage: string) => usage.length > USAGE_COLUMN_MAX;
  const width = Math.max(...entries.map(([usage]) => (isLong(usage) ? 0 : usage.length)));
  const lines = entries.map(([usage, summary]) =>
    isLong(usage) && summary
      ? `  ${usage}\n  ${"".padEnd(width)}  ${summary}`
      : `  ${usage.padEnd(width)}  ${summary}`.trimEnd(),
  );
  return `usage: llmgw ctl <command> [options]

commands:
${lines.join("\n")}

The server comes from --server, LLMGW_SERVER, or the last login (default http://127.0.0.1:8080);
LLMGW_TOKEN overrides the saved session token. Failures exit non-zero with the reason.
`;
}
