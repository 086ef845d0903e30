// Simulated: the guard's judge. A chat whose system prompt opens with the guard's judge line is
// answered with a verdict JSON instead of words: "injection" when the text holds the marker
// SIMULATED_INJECTION_MARKER or an instruction the guard's rules catch, "allow" otherwise. No
// model reads anything; this lets tests and a dev fleet exercise the judge path end to end.
import { JUDGE_SYSTEM_LINE, findInjection } from "@llmgw/domain";
import type { Reply } from "./text";

/** Text that the simulated judge flags and the guard's rules do not: it stands for what only a model sees. */
export const SIMULATED_INJECTION_MARKER = "[sim-judge:injection]";

export function judgedText(
  messages: readonly { role: string; text: string }[],
): string | undefined {
  const [first, ...rest] = messages;
  if (first?.role !== "system" || !first.text.startsWith(JUDGE_SYSTEM_LINE)) return undefined;
  return rest.map((m) => m.text).join("\n");
}

export function judgeReply(text: string): Reply {
  const flagged = text.includes(SIMULATED_INJECTION_MARKER) || findInjection(text) !== null;
  const verdict = flagged
    ? { verdict: "injection", reason: "simulated judge: instructions for the model" }
    : { verdict: "allow" };
  return { tokens: [JSON.stringify(verdict)], finishReason: "stop" };
}
