// The guard on /v1: the prompt (chat messages, a completion's prompt) is read before it reaches
// a replica, and a whole (non-streamed) answer before it reaches the client. A withheld prompt or
// a judge that fails closed is refused with a code; a judge that failed open is named in a header.
import type { GuardStage } from "@llmgw/domain";
import { GatewayError } from "../gateway/errors";
import type { Guard, GuardDecision } from "./guard";

/** Set on answers the guard changed or let through without its judge. */
export const GUARD_HEADER = "x-llmgw-guard";

export interface V1Who {
  subject: string;
  levels: readonly string[];
  requestId: string;
}

type Slot = { get(): string; set(text: string): void };

/** The texts a model reads in a /v1 request or answer, each with a way to put a changed one back. */
function textSlots(parsed: Record<string, unknown>): Slot[] {
  const slots: Slot[] = [];
  const take = (holder: Record<string, unknown>, key: string) => {
    const value = holder[key];
    if (typeof value === "string")
      slots.push({ get: () => value, set: (text) => (holder[key] = text) });
    else if (Array.isArray(value))
      value.forEach((part: unknown, index) => {
        if (typeof part === "string")
          slots.push({ get: () => part, set: (text) => (value[index] = text) });
        else if (part && typeof part === "object") take(part as Record<string, unknown>, "text");
      });
  };
  for (const message of arrayOf(parsed.messages)) take(message, "content");
  take(parsed, "prompt");
  take(parsed, "input");
  for (const choice of arrayOf(parsed.choices)) {
    take(choice, "text");
    const message = choice.message;
    if (message && typeof message === "object") take(message as Record<string, unknown>, "content");
  }
  return slots;
}

function arrayOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => !!v && typeof v === "object")
    : [];
}

export interface GuardedText {
  raw: Buffer;
  /** The header to send, or null when the guard let everything through unchanged. */
  header: string | null;
}

/** Reads one /v1 JSON body (a request's or a whole answer's); throws the refusal for a blocked one. */
export async function guardV1Json(
  guard: Pick<Guard, "covers" | "inspect">,
  stage: Extract<GuardStage, "prompt" | "answer">,
  who: V1Who,
  raw: Buffer,
): Promise<GuardedText> {
  if (!(await guard.covers(stage, who.levels))) return { raw, header: null };
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
  } catch {
    return { raw, header: null };
  }
  const slots = textSlots(parsed);
  const decision = await guard.inspect(
    stage,
    who,
    slots.map((slot) => slot.get()),
  );
  refuseBlocked(decision, stage);
  if (decision.outcome === "passed") return { raw, header: null };
  slots.forEach((slot, i) => slot.set(decision.texts[i] ?? ""));
  const header =
    decision.outcome === "failed_open"
      ? `failed-open; policy=${decision.policies.join(",")}`
      : decision.outcome;
  return { raw: Buffer.from(JSON.stringify(parsed)), header };
}

function refuseBlocked(decision: GuardDecision, stage: GuardStage): void {
  const refusal = guardRefusal(decision, stage);
  if (refusal) throw refusal;
}

/** The refusal for a blocked decision (withheld, or refused by a judge that failed closed), else null. */
export function guardRefusal(decision: GuardDecision, stage: GuardStage): GatewayError | null {
  const policies = decision.policies.join(", ");
  const what = stage === "prompt" ? "the prompt" : "the answer";
  if (decision.outcome === "withheld")
    return new GatewayError(
      400,
      `${what} was withheld by guard policy ${policies}: it holds instructions for the model (${decision.reason})`,
      "invalid_request_error",
      "guard_withheld",
    );
  if (decision.outcome === "refused")
    return new GatewayError(
      503,
      `guard policy ${policies} fails closed and its judge did not answer in time; retry shortly or ask an administrator to check the judge (llmgw ctl guard judge check)`,
      "service_unavailable",
      "guard_judge_unavailable",
      { "retry-after": "5" },
    );
  return null;
}
