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

/**
 * A command's usage split into its forms at each " | " outside brackets and parentheses: a bar
 * inside them is a choice within one form (`(--user NAME | --group NAME)`), not another form.
 */
export function usageForms(usage: string): string[] {
  const forms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < usage.length; at += 1) {
    const char = usage[at];
    if (char === "[" || char === "(") depth += 1;
    else if (char === "]" || char === ")") depth -= 1;
    else if (depth === 0 && usage.startsWith(" | ", at)) {
      forms.push(usage.slice(start, at));
      start = at + 3;
    }
  }
  forms.push(usage.slice(start));
  return forms;
}

export function usageText(): string {
  const entries = Object.values(COMMANDS).flatMap((command) =>
    usageForms(command.usage).map(
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
