/** The least-squares slope of memory over time, MiB a minute (the soak's and the memory bench's). */
export function rssSlope(samples: ReadonlyArray<{ atMin: number; mib: number }>): number {
  const n = samples.length;
  if (n < 2) return 0;
  const meanX = samples.reduce((a, s) => a + s.atMin, 0) / n;
  const meanY = samples.reduce((a, s) => a + s.mib, 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.atMin - meanX) * (s.mib - meanY);
    den += (s.atMin - meanX) ** 2;
  }
  return den === 0 ? 0 : num / den;
}
