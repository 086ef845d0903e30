// The node's network traffic in bytes a second, from the kernel's interface counters in
// /proc/net/dev (Linux only). The counters are totals since boot, so a rate needs two readings:
// the first sample has none, and a machine without the file never has one.
import { readFile } from "node:fs/promises";

export interface NetworkRate {
  networkReceiveBytesPerSecond?: number;
  networkTransmitBytesPerSecond?: number;
}

interface NetworkTotals {
  receiveBytes: number;
  transmitBytes: number;
}

/**
 * Bytes received and sent summed over every interface but loopback: traffic between processes on
 * the node is not traffic on its network. Lines that do not parse are skipped, not guessed at.
 */
export function parseNetDev(text: string): NetworkTotals {
  let receiveBytes = 0;
  let transmitBytes = 0;
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    if (name === "lo") continue;
    // After the name: 8 receive columns (bytes first), then 8 transmit columns (bytes first).
    const columns = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    const received = columns[0];
    const sent = columns[8];
    if (columns.length < 16 || !Number.isFinite(received) || !Number.isFinite(sent)) continue;
    receiveBytes += received ?? 0;
    transmitBytes += sent ?? 0;
  }
  return { receiveBytes, transmitBytes };
}

/** Reads /proc/net/dev; rejects where there is none (macOS, Windows). */
export type NetDevReader = () => Promise<string>;

const readProcNetDev: NetDevReader = () => readFile("/proc/net/dev", "utf8");

/**
 * Returns a sampler of the node's network rate since its previous call. Nothing is reported on the
 * first call, when the file cannot be read, or when a total went down (an interface went away or
 * its counter wrapped), since any figure then would be made up.
 */
export function createNetworkRateSampler(
  nowMs: () => number,
  read: NetDevReader = readProcNetDev,
): () => Promise<NetworkRate> {
  let previous: (NetworkTotals & { atMs: number }) | undefined;
  return async () => {
    let current: NetworkTotals & { atMs: number };
    try {
      current = { ...parseNetDev(await read()), atMs: nowMs() };
    } catch {
      previous = undefined;
      return {};
    }
    const before = previous;
    previous = current;
    const seconds = before === undefined ? 0 : (current.atMs - before.atMs) / 1000;
    if (before === undefined || seconds <= 0) return {};
    const received = current.receiveBytes - before.receiveBytes;
    const sent = current.transmitBytes - before.transmitBytes;
    if (received < 0 || sent < 0) return {};
    return {
      networkReceiveBytesPerSecond: received / seconds,
      networkTransmitBytesPerSecond: sent / seconds,
    };
  };
}
