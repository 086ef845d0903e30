// The guard on MCP tool traffic: a call's arguments are read before they leave for the upstream,
// and a tool's answer is read as the prompt it becomes, so an instruction planted in a ticket is
// withheld from the caller and personal data is redacted both ways.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Guard, GuardDecision } from "./guard";

export interface ToolCallWho {
  subject: string;
  levels: readonly string[];
  requestId: string;
}

/** Where a decision that did not block is marked for the caller. */
const GUARD_META_KEY = "llmgw/guard";

/** Every string inside a JSON value, with a way to put a changed one back. */
function stringLeaves(value: unknown): { texts: string[]; rebuild(texts: string[]): unknown } {
  const texts: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === "string") texts.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === "object") Object.values(v).forEach(collect);
  };
  collect(value);
  const rebuild = (replaced: string[]) => {
    let at = 0;
    const put = (v: unknown): unknown => {
      if (typeof v === "string") return replaced[at++];
      if (Array.isArray(v)) return v.map(put);
      if (v && typeof v === "object")
        return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, put(inner)]));
      return v;
    };
    return put(value);
  };
  return { texts, rebuild };
}

export type ArgsVerdict =
  | { ok: true; args: Record<string, unknown> | undefined; decision: GuardDecision }
  | { ok: false; message: string };

export async function guardToolArgs(
  guard: Guard,
  who: ToolCallWho,
  tool: string,
  args: Record<string, unknown> | undefined,
): Promise<ArgsVerdict> {
  const leaves = stringLeaves(args ?? {});
  const decision = await guard.inspect("tool_args", who, leaves.texts);
  const blocked = blockedMessage(decision, `the arguments of ${tool}`);
  if (blocked) return { ok: false, message: blocked };
  const changed = decision.outcome === "redacted" || decision.outcome === "failed_open";
  const out = changed && args ? (leaves.rebuild(decision.texts) as Record<string, unknown>) : args;
  return { ok: true, args: out, decision };
}

export async function guardToolResult(
  guard: Guard,
  who: ToolCallWho,
  tool: string,
  result: CallToolResult,
): Promise<CallToolResult> {
  const textParts = result.content.filter((part) => part.type === "text");
  const decision = await guard.inspect(
    "tool_result",
    who,
    textParts.map((part) => part.text),
  );
  const blocked = blockedMessage(decision, `the answer of ${tool}`);
  if (blocked) return { content: [{ type: "text", text: blocked }], isError: true };
  if (decision.outcome === "passed") return result;
  let at = 0;
  const content = result.content.map((part) =>
    part.type === "text" ? { ...part, text: decision.texts[at++] ?? "" } : part,
  );
  return {
    ...result,
    content,
    _meta: {
      ...result._meta,
      [GUARD_META_KEY]: { outcome: decision.outcome, reason: decision.reason },
    },
  };
}

/** The words a caller gets in place of a withheld or refused text; never the text itself. */
function blockedMessage(decision: GuardDecision, what: string): string | null {
  const policies = decision.policies.join(", ");
  if (decision.outcome === "withheld")
    return `guard_withheld: ${what} was withheld by guard policy ${policies}: it holds instructions for the model (${decision.reason})`;
  if (decision.outcome === "refused")
    return `guard_judge_unavailable: ${what} was not let through: guard policy ${policies} fails closed and its judge did not answer (${decision.reason})`;
  return null;
}
