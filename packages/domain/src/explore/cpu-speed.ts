// What a CPU node would serve a model at. Decoding one token on a CPU reads every active weight
// once from memory, so memory bandwidth, not arithmetic, sets the pace: tokens per second is the
// node's measured read rate over the bytes one token reads, times how much of that rate llama.cpp
// actually gets (its threads do not stream as well as a single tight read loop, and attention
// and the KV cache read more besides).

/**
 * The share of the measured read rate llama.cpp's decoding reaches: tokens/s × active weight bytes
 * ÷ read rate, as bench/cpu-decode/calibrate.ts measures it (llama-server v0.5.0 on a 514 MiB f32
 * llama, against the agent's own read-rate probe). The median of three runs on an idle 2-core
 * machine: 0.784, 0.848 and 0.819 (docs/sizing.md, "Calibrating the constant").
 */
export const CPU_DECODE_EFFICIENCY = 0.82;

/** Expected decoding tokens per second, one decimal; undefined until the read rate is measured. */
export function cpuTokensPerSecond(
  readBytesPerSecond: number | undefined,
  activeWeightBytes: number,
): number | undefined {
  if (readBytesPerSecond === undefined || readBytesPerSecond <= 0) return undefined;
  if (activeWeightBytes <= 0) return undefined;
  const perSecond = (readBytesPerSecond / activeWeightBytes) * CPU_DECODE_EFFICIENCY;
  return Math.round(perSecond * 10) / 10;
}

/** The bytes one token reads: the weights scaled to the active share of the parameters. */
export function activeWeightBytes(
  weightBytes: number,
  parameters: { total: number; active: number },
): number {
  if (parameters.total <= 0) return weightBytes;
  return Math.round(weightBytes * (parameters.active / parameters.total));
}
