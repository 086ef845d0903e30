// Whether a card is linked below what it could have. Two things make a link slower than the card
// allows, and both are fixed by how the card sits in the machine: fewer lanes in use than the card
// has (a narrow slot or riser), and a slot of an older generation than the card. The generation
// the link runs at now is never compared: it drops whenever a card idles (an idle RTX 2080 SUPER
// reads Gen1 of Gen3) and says nothing about the slot.

/** What an agent reports of a card's link; absent or null where the driver does not say. */
export interface PcieLinkReport {
  /** The fastest generation card and slot allow together. */
  pcieGenMax?: number | null;
  /** The fastest generation the card itself supports. */
  pcieGenCardMax?: number | null;
  /** The most lanes the card can use. */
  pcieWidthMax?: number | null;
  /** The lanes in use. */
  pcieWidthCurrent?: number | null;
}

export interface PcieLinkAssessment {
  /** What the link carries at most as it is seated: the slot's generation, the lanes in use. */
  carried: { gen: number; width: number; bandwidthGBps: number };
  /** What the card could carry in a slot of its own generation with all its lanes. */
  possible: { gen: number; width: number; bandwidthGBps: number };
  isBelowCapability: boolean;
  /** Why, in a sentence; null when the link is all the card could have. */
  reason: string | null;
}

// Transfers per second per lane (GT/s) and the share left after line encoding: 8b/10b up to
// Gen2, 128b/130b for Gen3-5, and Gen6's FLIT mode (242 of 256 bytes carry data).
const GIGATRANSFERS_PER_LANE: Record<number, number> = { 1: 2.5, 2: 5, 3: 8, 4: 16, 5: 32, 6: 64 };

function encodingShare(gen: number): number {
  if (gen <= 2) return 8 / 10;
  if (gen <= 5) return 128 / 130;
  return 242 / 256;
}

/** Gigabytes per second in each direction; 0 for a generation this table does not know. */
export function pcieBandwidthGBps(gen: number, width: number): number {
  const transfers = GIGATRANSFERS_PER_LANE[gen] ?? 0;
  return (transfers * encodingShare(gen) * width) / 8;
}

function known(value: number | null | undefined): value is number {
  return value !== undefined && value !== null && value > 0;
}

/** Null when the driver did not say enough to judge (no generation or no lane count). */
export function assessPcieLink(link: PcieLinkReport): PcieLinkAssessment | null {
  if (!known(link.pcieGenMax) || !known(link.pcieWidthMax)) return null;
  const possibleGen = known(link.pcieGenCardMax)
    ? Math.max(link.pcieGenCardMax, link.pcieGenMax)
    : link.pcieGenMax;
  const carriedWidth = known(link.pcieWidthCurrent) ? link.pcieWidthCurrent : link.pcieWidthMax;
  const carried = {
    gen: link.pcieGenMax,
    width: carriedWidth,
    bandwidthGBps: pcieBandwidthGBps(link.pcieGenMax, carriedWidth),
  };
  const possible = {
    gen: possibleGen,
    width: link.pcieWidthMax,
    bandwidthGBps: pcieBandwidthGBps(possibleGen, link.pcieWidthMax),
  };
  const causes: string[] = [];
  if (carried.width < possible.width)
    causes.push(`x${carried.width} of its x${possible.width} lanes in use`);
  if (carried.gen < possible.gen)
    causes.push(`the slot allows Gen${carried.gen}, the card Gen${possible.gen}`);
  const reason =
    causes.length === 0
      ? null
      : `PCIe link below the card's: ${causes.join("; ")}; it carries ${formatGBps(carried.bandwidthGBps)} of ${formatGBps(possible.bandwidthGBps)}`;
  return { carried, possible, isBelowCapability: reason !== null, reason };
}

export function formatGBps(value: number): string {
  return `${Math.round(value * 10) / 10} GB/s`;
}
