// Whether the control plane answers, as the console's own queries find out: every answer says it
// does, a call that could not reach it says it does not. Anything else (a refusal, a missing
// node) is an answer too. Pure, so the rules are tested without a browser.
import { isUnreachable } from "../errors";

export interface ConnectionState {
  reachable: boolean;
  /** When the last answer with data arrived (ms since the epoch), or null before the first. */
  lastDataAt: number | null;
}

export const INITIAL_CONNECTION: ConnectionState = { reachable: true, lastDataAt: null };

export type QueryOutcome = { kind: "success"; at: number } | { kind: "error"; error: unknown };

export function nextConnectionState(
  state: ConnectionState,
  outcome: QueryOutcome,
): ConnectionState {
  if (outcome.kind === "success") return { reachable: true, lastDataAt: outcome.at };
  if (!isUnreachable(outcome.error)) return state.reachable ? state : { ...state, reachable: true };
  return state.reachable ? { ...state, reachable: false } : state;
}
