// Reads each NVIDIA card's PCIe link from `lspci -vv`: LnkCap (what the card can do) and LnkSta
// (what it runs at now). Only the lane count is graded: the speed in LnkSta drops whenever a card
// idles, so a slower speed says nothing about the slot (see @llmgw/domain's pcie-link).
import { pcieBandwidthGBps } from "@llmgw/domain";
import { pass, type DoctorCheck } from "./check";

export interface PcieLinkReading {
  /** The device's address as lspci prints it ("0000:2a:00.0"). */
  address: string;
  name: string;
  cap: { gen: number; width: number } | null;
  sta: { gen: number; width: number } | null;
}

const GEN_BY_GIGATRANSFERS: Record<string, number> = {
  "2.5": 1,
  "5": 2,
  "8": 3,
  "16": 4,
  "32": 5,
  "64": 6,
};

// A device block starts at column 0 with its address and class: "0000:2a:00.0 3D controller: …".
const HEADING =
  /^([0-9a-f]{2,4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]|[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) ([^:]+): (.*)$/i;
const GPU_CLASSES = ["VGA compatible controller", "3D controller"];

function linkOf(line: string | undefined): { gen: number; width: number } | null {
  if (line === undefined) return null;
  const speed = /Speed ([\d.]+)GT\/s/.exec(line)?.[1];
  const width = /Width x(\d+)/.exec(line)?.[1];
  const gen = speed === undefined ? undefined : GEN_BY_GIGATRANSFERS[speed];
  return gen === undefined || width === undefined ? null : { gen, width: Number(width) };
}

/** The links of the NVIDIA display and 3D controllers in `lspci -vv` output (audio functions left out). */
export function parseLspciLinks(text: string): PcieLinkReading[] {
  const readings: PcieLinkReading[] = [];
  let block: string[] = [];
  const flush = () => {
    const [, address = "", deviceClass = "", name = ""] = HEADING.exec(block[0] ?? "") ?? [];
    if (GPU_CLASSES.includes(deviceClass) && /NVIDIA/i.test(name)) {
      const field = (label: string) =>
        block.find((line) => line.trimStart().startsWith(`${label}:`));
      readings.push({
        address,
        name: name.replace(/\s*\(rev [0-9a-f]+\)$/i, ""),
        cap: linkOf(field("LnkCap")),
        sta: linkOf(field("LnkSta")),
      });
    }
    block = [];
  };
  for (const line of text.split("\n")) {
    if (HEADING.test(line)) flush();
    block.push(line);
  }
  flush();
  return readings;
}

const LSPCI_FIX =
  "reseat the card in a slot wired for all its lanes (check the riser); compare with `lspci -vv -s ADDRESS | grep -E 'LnkCap|LnkSta'`";

/** One check per card: warn when fewer lanes are in use than LnkCap says the card has. */
export function gradePcieLink(reading: PcieLinkReading): DoctorCheck {
  const id = `pcie.${reading.address}`;
  const { cap, sta } = reading;
  if (cap === null || sta === null)
    return {
      id,
      status: "warn",
      summary: `${reading.name} at ${reading.address}: lspci shows no LnkCap/LnkSta (run the doctor as root to read them)`,
      fix: "run `sudo llmgw doctor`: lspci hides the link capability from other users",
    };
  const carried = pcieBandwidthGBps(cap.gen, sta.width);
  const possible = pcieBandwidthGBps(cap.gen, cap.width);
  if (sta.width < cap.width)
    return {
      id,
      status: "warn",
      summary: `${reading.name} at ${reading.address}: LnkSta x${sta.width} of LnkCap x${cap.width} lanes; it carries ${carried.toFixed(1)} GB/s of ${possible.toFixed(1)} GB/s`,
      fix: LSPCI_FIX.replace("ADDRESS", reading.address),
    };
  return pass(
    id,
    `${reading.name} at ${reading.address}: x${sta.width} of x${cap.width} lanes, Gen${cap.gen} capable (${possible.toFixed(1)} GB/s); now Gen${sta.gen}, which drops while idle`,
  );
}
