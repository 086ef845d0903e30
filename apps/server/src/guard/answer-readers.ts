// How the guard reads a /v1 answer on its way to the client: a whole JSON answer before any of it
// is sent, a stream as it is relayed, or (no policy reads this caller's answers) not at all.
import type { GuardPolicy } from "@llmgw/domain";
import type { Guard } from "./guard";
import { StreamGuard } from "./stream-guard";
import { guardV1Json, type V1Who } from "./v1-guard";

/** How a /v1 answer is read by the guard on its way to the client; both absent: it is piped through. */
export interface AnswerReaders {
  /** A whole JSON answer, read before the client gets any of it. */
  rewriteAnswer?: (answer: Buffer) => Promise<{ body: Buffer; header: string | null }>;
  /** A streamed answer, read as it is relayed. */
  guardStream?: () => StreamGuard;
}

/**
 * The guard's readers for one answer, from the policies that read answers for this caller. With
 * none, neither: a plain answer is then not held back and buffered only to be passed on as it was.
 * `promptHeader`: the prompt's guard header, kept when the answer's reading adds none.
 */
export function answerReaders(
  guard: Pick<Guard, "covers" | "inspect">,
  who: V1Who,
  answerPolicies: readonly GuardPolicy[],
  isStream: boolean,
  promptHeader: string | null,
): AnswerReaders {
  if (answerPolicies.length === 0) return {};
  if (isStream) return { guardStream: () => new StreamGuard(guard, who, answerPolicies) };
  return {
    rewriteAnswer: async (answer) => {
      const read = await guardV1Json(guard, "answer", who, answer);
      return { body: read.raw, header: read.header ?? promptHeader };
    },
  };
}
