// What the simulated model "says": words picked deterministically from the prompt, one token each,
// and a rough token count for prompts (about four characters a token, as for English BPE).
import { hashSeed, seededRandom } from "./random";

const WORDS = [
  "the",
  "cluster",
  "serves",
  "a",
  "simulated",
  "answer",
  "with",
  "steady",
  "tokens",
  "from",
  "one",
  "replica",
  "while",
  "the",
  "router",
  "keeps",
  "latency",
  "low",
  "and",
  "every",
  "card",
  "stays",
  "cool",
  "under",
  "load",
  "so",
  "operators",
  "can",
  "test",
  "failover",
];

const NATURAL_TOKENS_MIN = 8;
const NATURAL_TOKENS_SPREAD = 40;

export function countPromptTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export interface Reply {
  /** Each element is one token, with its leading space. */
  tokens: string[];
  finishReason: "stop" | "length";
}

/** A reply of the prompt's natural length, or cut to maxTokens (finish reason "length"). */
export function generateReply(prompt: string, maxTokens: number | undefined): Reply {
  const random = seededRandom(hashSeed(prompt));
  const natural = NATURAL_TOKENS_MIN + Math.floor(random() * NATURAL_TOKENS_SPREAD);
  const length = Math.min(natural, maxTokens ?? natural);
  const tokens: string[] = [];
  for (let i = 0; i < length; i += 1) {
    const word = WORDS[Math.floor(random() * WORDS.length)] ?? "token";
    tokens.push(i === 0 ? word[0]?.toUpperCase() + word.slice(1) : ` ${word}`);
  }
  if (length === natural && tokens.length > 0) tokens[tokens.length - 1] += ".";
  return { tokens, finishReason: length < natural ? "length" : "stop" };
}
