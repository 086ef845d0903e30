// Readiness: an engine is ready when its health path answers 200. The key is sent because some
// engines put everything behind it; vLLM, llama.cpp and the simulator leave /health open, which is
// what lets a restarted agent check an engine it is adopting before the key arrives again.
export type HealthProbe = (
  url: string,
  apiKey: string | undefined,
  timeoutMs: number,
) => Promise<number | undefined>;

/** The HTTP status, or undefined when nothing answered in time. */
export const probeHealth: HealthProbe = async (url, apiKey, timeoutMs) => {
  try {
    const response = await fetch(url, {
      headers: apiKey === undefined || apiKey === "" ? {} : { authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return undefined;
  }
};

export function healthUrl(host: string, port: number, healthPath: string): string {
  const hostPart = host.includes(":") ? `[${host}]` : host;
  return `http://${hostPart === "0.0.0.0" ? "127.0.0.1" : hostPart}:${port}${healthPath}`;
}
