// Whether a timed run of the router bench can be used, and what each target is to the ratios.
import type { Fleet } from "./fleet";
import type { Load } from "./measure";

/**
 * What a run is to the ratios: `base` if others are divided by it (direct; checks off for P5),
 * `competitor` for Portkey (a base for "× Portkey", but never the reason to refuse llmgw's run),
 * `target` otherwise.
 */
export type Role = "base" | "competitor" | "target";

export function roleOf(name: string, fleet: Fleet): Role {
  if (name === "direct" || name === fleet.llmgwChecksOff.name) return "base";
  return name === "Portkey" ? "competitor" : "target";
}

/**
 * Whether a timed run's figures can be used. Its end cuts up to one request a connection, counted
 * nowhere, so its req/s reads low by at most connections ÷ answers. A ratio therefore reads high by
 * at most its base's share and low by at most its own: a base with under `answersPerConnectionMin`
 * answers a connection could flatter every ratio taken against it by over 5 %, and fails the
 * benchmark; any other run that short is noted with how far it may read low, which can hide a met
 * bar but never claim one. (A streams run's answers each take long: 200 connections at 350
 * streams/s make 17 answers a connection in 10 s, and only direct's count guards the ratio.)
 */
export function judgeRun(
  result: Load,
  connections: number,
  size: { durationS: number; answersPerConnectionMin: number },
  role: Role,
): { problem: string | null; note: string | null } {
  const { durationS, answersPerConnectionMin } = size;
  if (durationS === 0) return { problem: null, note: null };
  if (result.elapsedMs < durationS * 1000)
    return {
      problem: `ended after ${Math.round(result.elapsedMs)} ms of its ${durationS} s`,
      note: null,
    };
  if (result.answers >= connections * answersPerConnectionMin) return { problem: null, note: null };
  const cutPercent = ((100 * connections) / Math.max(1, result.answers)).toFixed(1);
  const counted = `${result.answers.toLocaleString("en-US")} answers in ${durationS} s from ${connections} connections`;
  if (role === "base")
    return {
      problem: `${counted}: the requests cut at its end (up to one a connection) could flatter every ratio taken against it by ${cutPercent} %`,
      note: null,
    };
  const against = role === "competitor" ? ", and ratios against it read high by as much" : "";
  return {
    problem: null,
    note: `${counted}: its req/s may read up to ${cutPercent} % low${against}`,
  };
}
