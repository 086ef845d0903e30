// Pairing and grading for `ctl fabric-test A B`, pure. Rails pair adapters by index, as NCCL does
// when every node lists the same adapters in the same order: A's i-th adapter with B's i-th.
import { FABRIC_OK_RATIO, type FabricRailView } from "@llmgw/api";

export interface AdapterReading {
  name: string;
  state: string;
  rateGbps: number;
}

export interface RailPair {
  rail: number;
  client: AdapterReading;
  server: AdapterReading;
}

/** Adapters in each node's order (the agent sends them sorted as NCCL numbers them). */
export function pairRails(
  client: readonly AdapterReading[],
  server: readonly AdapterReading[],
): RailPair[] {
  if (client.length !== server.length)
    throw new Error(`adapter counts differ: ${client.length} and ${server.length}`);
  return client.flatMap((adapter, rail) => {
    const peer = server[rail];
    return peer === undefined ? [] : [{ rail, client: adapter, server: peer }];
  });
}

const isActive = (adapter: AdapterReading) => /ACTIVE/.test(adapter.state);

function railBase(pair: RailPair) {
  return {
    rail: pair.rail,
    clientAdapter: pair.client.name,
    serverAdapter: pair.server.name,
    linkGbps: Math.min(pair.client.rateGbps, pair.server.rateGbps),
  };
}

/** A rail whose port is down is not run: ib_write_bw could only fail on it. */
export function downRail(pair: RailPair): FabricRailView | null {
  const down = [pair.client, pair.server].filter((adapter) => !isActive(adapter));
  if (down.length === 0) return null;
  const names = down.map((adapter) => `${adapter.name} is ${adapter.state || "in no state"}`);
  return failedRail(
    pair,
    `not run: ${names.join(", ")}`,
    "bring the port up (ibstat shows its state; check the cable and the switch port)",
  );
}

export function failedRail(
  pair: RailPair,
  why: string,
  fix = "see the reason; both agents' logs have perftest's output (llmgw ctl logs NODE)",
): FabricRailView {
  return {
    ...railBase(pair),
    averageGbps: null,
    peakGbps: null,
    ratio: null,
    status: "failed",
    summary: why,
    fix,
  };
}

const gbps = (value: number) => `${value.toFixed(1)} Gb/s`;

/** ok at FABRIC_OK_RATIO of the link's rate or more, slow below. */
export function gradeRail(
  pair: RailPair,
  measured: { averageGbps: number; peakGbps: number },
): FabricRailView {
  const base = railBase(pair);
  if (base.linkGbps <= 0)
    return {
      ...base,
      ...measured,
      ratio: null,
      status: "slow",
      summary: `${gbps(measured.averageGbps)} average; the link's rate is unknown`,
      fix: "the port's rate could not be read from sysfs (/sys/class/infiniband/DEV/ports/1/rate); check it with ibstat",
    };
  const ratio = measured.averageGbps / base.linkGbps;
  const share = `${gbps(measured.averageGbps)} average, ${Math.round(ratio * 100)} % of the ${gbps(base.linkGbps)} link`;
  if (ratio >= FABRIC_OK_RATIO)
    return { ...base, ...measured, ratio, status: "ok", summary: share, fix: "" };
  return {
    ...base,
    ...measured,
    ratio,
    status: "slow",
    summary: share,
    fix: `below ${Math.round(FABRIC_OK_RATIO * 100)} %: check the cable and switch port (ibstat, error counters), the adapters' PCIe links (llmgw ctl doctor NODE), and that nothing else loaded the rail during the run`,
  };
}
