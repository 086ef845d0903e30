// The command table of `llmgw ctl`, and the forms and verbs read from each command's usage.
import { benchCommands } from "./bench";
import { clusterCommands } from "./cluster";
import type { Command } from "./command";
import { engineBuildCommands } from "./engine-build";
import { eventCommands } from "./events";
import { exploreCommands } from "./explore";
import { facilityCommands } from "./facility";
import { guardCommands } from "./guard";
import { federationCommands } from "./federation";
import { identityCommands } from "./identity";
import { joinTokenCommands } from "./join-tokens";
import { keyCommands } from "./keys";
import { mcpCommands } from "./mcp";
import { mirrorCommands } from "./mirrors";
import { modelCommands } from "./models";
import { quotaCommands } from "./quotas";
import { releaseCommands } from "./releases";
import { requestCommands } from "./requests";
import { controlPlaneCommands } from "./control-planes";
import { upgradeCommands } from "./upgrade";
import { sessionCommands } from "./session";
import { usageCommands } from "./usage";

export const COMMANDS: Readonly<Record<string, Command>> = {
  ...sessionCommands,
  ...modelCommands,
  ...clusterCommands,
  ...keyCommands,
  ...joinTokenCommands,
  ...usageCommands,
  ...requestCommands,
  ...eventCommands,
  ...identityCommands,
  ...mcpCommands,
  ...guardCommands,
  ...federationCommands,
  ...mirrorCommands,
  ...releaseCommands,
  ...upgradeCommands,
  ...controlPlaneCommands,
  ...quotaCommands,
  ...exploreCommands,
  ...facilityCommands,
  ...engineBuildCommands,
  ...benchCommands,
};

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

/** The words that may follow a command's name (`keys` → create, list, revoke), for completion. */
export function verbsOf(usage: string): string[] {
  const [, ...rest] = usage.split(" ");
  const firstWords = [rest.join(" "), ...usageForms(usage).slice(1)].map(
    (form) => form.split(" ")[0] ?? "",
  );
  const verbs = firstWords
    .map((word) => /^\[?([a-z][a-z-]*)\]?$/.exec(word)?.[1])
    .filter((verb): verb is string => verb !== undefined);
  return [...new Set(verbs)];
}
