// Simulated: a prompt that holds `[sim-say]TEXT[/sim-say]` is answered with TEXT, four characters a
// token, so tests can have a model say what they need (personal data, a planted instruction) and
// see it split over streamed chunks as a real tokenizer splits it. No model reads anything.
import type { Reply } from "./text";

const SAY = /\[sim-say\]([\s\S]*?)\[\/sim-say\]/;
const CHARS_PER_TOKEN = 4;

/** The reply a prompt asks the simulator to say, or null when it asks for none. */
export function sayReply(prompt: string, maxTokens: number | undefined): Reply | null {
  const said = SAY.exec(prompt)?.[1];
  if (said === undefined || said === "") return null;
  const tokens: string[] = [];
  for (let at = 0; at < said.length; at += CHARS_PER_TOKEN)
    tokens.push(said.slice(at, at + CHARS_PER_TOKEN));
  const isCut = maxTokens !== undefined && tokens.length > maxTokens;
  return {
    tokens: isCut ? tokens.slice(0, maxTokens) : tokens,
    finishReason: isCut ? "length" : "stop",
  };
}
