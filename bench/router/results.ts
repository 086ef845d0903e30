// What one router benchmark run found, target by target, as report.ts turns it into markdown.
import type { RunInfo as PlacementRunInfo } from "../placement/report";
import type { ThreadShares } from "./measure";

export interface RunInfo extends PlacementRunInfo {
  portkeyVersion: string;
  autocannonVersion: string;
  /** Where the processes ran (cores.ts's describeCores). */
  cores: string;
  /** How the llmgw servers were started: from a release or from the checkout (a sentence). */
  llmgwFrom: string;
}

export interface TargetResult {
  name: string;
  /** One request at a time against the instant engine (P1). */
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Over direct's requests taken in turn with this target's (NaN for direct itself). */
  addedP50Ms: number;
  addedP99Ms: number;
  /** One stream at a time (P4): to the first byte of the body. */
  ttftP50Ms: number;
  ttftP99Ms: number;
  /** Over direct's first byte in the same pairs (NaN for direct itself). */
  ttftAddedP50Ms: number;
  /** SSE events per stream, every distinct count seen. */
  eventCounts: number[];
  /** Medians over the rounds; ratios are medians of each round's ratio to direct. */
  saturated?: LoadSummary;
  slow?: LoadSummary;
  streams?: LoadSummary;
}

export interface LoadSummary {
  rps: number;
  vsDirect: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** The target process's CPU per answer, median of the rounds; null where it was not read. */
  cpuUsPerAnswer: number | null;
  /** Where the target's main thread's wall time went, medians of the rounds; null: unread. */
  mainThread: ThreadShares | null;
  /** The client side's CPU per answer (load generator and engine), median of the rounds. */
  clientCpuUsPerAnswer: number | null;
}

/** One point of the size axis: one at a time against the instant engine, direct and llmgw. */
export interface SizeResult {
  /** Replicas of other models in llmgw's book besides the measured one. */
  others: number;
  directP50Ms: number;
  directP99Ms: number;
  llmgwP50Ms: number;
  llmgwP99Ms: number;
  /**
   * The llmgw server's event-loop delay over the run (prom-client's monitorEventLoopDelay at 10 ms
   * resolution, read from its /metrics before and after), the 10 ms resolution taken off: how long
   * a timer waited behind other work on the server's one thread. Null when it could not be read.
   */
  loopDelay: { p99Ms: number; maxMs: number } | null;
}

export interface RouterResults {
  targets: TargetResult[];
  /** P5: llmgw with checks off, the instant engine, 50 connections; vsDirect is checks-on ÷ off. */
  checksOff: LoadSummary;
  checksOnVsOff: number;
  /** The load generator's yardstick (a server answering a fixed body), 50 connections. */
  bareServer: LoadSummary;
  sizes: SizeResult[];
  rounds: number;
  durationS: number;
  warmupS: number;
  /**
   * A base run (direct; checks off for P5) with fewer answers per connection fails the benchmark;
   * any other run that short is listed in `shortRuns` with how far its req/s may read low.
   */
  answersPerConnectionMin: number;
  shortRuns: string[];
  /** The pause after each timed run. */
  settleMs: number;
  oneAtATimeCount: number;
  streamCount: number;
  /** One at a time: recorded pairs (direct, then the gateway) per block, and unrecorded before them. */
  pairBlock: number;
  pairBlockWarmup: number;
  /** One at a time: unrecorded pairs each gateway makes with direct before its first block. */
  pairWarmup: number;
}
