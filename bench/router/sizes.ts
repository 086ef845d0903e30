// The router benchmark's sizes: the full method, its smoke and its quick trial (run.ts picks one).
/**
 * `durationS`: how long each measured run under load lasts (0: one request per connection, read to
 * the end); before the rounds, each target is warmed up by an unrecorded run of `warmupS`.
 * `others`: replicas of other models the size axis adds behind the same engine. One at a time, each
 * gateway takes turns with direct in blocks of `block` recorded pairs, after `blockWarmup` unrecorded
 * ones (measure.ts's inPairs), after `warmup` unrecorded pairs each before the first block: a
 * process's first few thousand requests run code V8 has not optimised yet (the client's and the
 * engine's too), and those belong to its start, not to its added latency. A timed run leaves
 * uncounted the requests it cut at its end, at most one per connection: a run that others' ratios
 * are taken against with fewer than `answersPerConnectionMin` answers per connection fails the
 * benchmark (20: the cut requests are under 5 % of its work; see `judgeRun`).
 */
export const FULL = {
  count: 1_000,
  streams: 300,
  warmup: 3_000,
  rounds: 3,
  durationS: 10,
  warmupS: 1,
  answersPerConnectionMin: 20,
  others: 4_000,
  block: 25,
  blockWarmup: 5,
};
/** One run of one request per connection against each target, unsized. */
export const SMOKE: typeof FULL = {
  count: 40,
  streams: 20,
  warmup: 5,
  rounds: 1,
  durationS: 0,
  warmupS: 0,
  answersPerConnectionMin: 0,
  others: 10,
  block: 10,
  blockWarmup: 1,
};
/** The full method, briefly: for trying the benchmark itself, never for its figures. */
export const QUICK: typeof FULL = {
  count: 100,
  streams: 20,
  warmup: 10,
  rounds: 1,
  durationS: 2,
  warmupS: 1,
  answersPerConnectionMin: 0,
  others: 200,
  block: 25,
  blockWarmup: 5,
};
