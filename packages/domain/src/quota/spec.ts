// The one text form of quota amounts, as `ctl quota set --guarantee …` takes them and as the
// console and the CLI print them: `gpus=H100-80G:16,gpus=L40S:4,cores=64,memory=512GiB`.
// Parsing is the only judge of an amount; a refusal names the part that was wrong.
import { GPU_CLASS_PATTERN } from "../catalog/gpu-class";
import type { QuotaAmounts } from "./types";

export type QuotaSpecResult =
  { ok: true; amounts: QuotaAmounts } | { ok: false; part: string; why: string };

export const QUOTA_SPEC_EXAMPLE = "gpus=H100-80G:16,cores=64,memory=512GiB";

// Memory is kept in GiB. "GB" reads as GiB, as profiles' memory_gb do: an operator copying a
// profile's figure into a quota must get the same amount, not 7% less.
const MEMORY_UNITS_GIB: Record<string, number> = {
  "": 1,
  g: 1,
  gb: 1,
  gib: 1,
  t: 1024,
  tb: 1024,
  tib: 1024,
};

const NUMBER = /^\d+(?:\.\d+)?$/;
const WHOLE = /^\d+$/;
const MEMORY = /^(\d+(?:\.\d+)?)\s*([A-Za-z]*)$/;
/** Big enough for any fleet, small enough that sums stay exact. */
const AMOUNT_MAX = 1_000_000_000;

type Refusal = { ok: false; part: string; why: string };
const refuse = (part: string, why: string): Refusal => ({ ok: false, part, why });

function parseGpus(part: string, value: string, amounts: QuotaAmounts): Refusal | null {
  const colon = value.lastIndexOf(":");
  const gpuClass = colon < 0 ? "" : value.slice(0, colon).trim();
  const count = colon < 0 ? "" : value.slice(colon + 1).trim();
  if (!GPU_CLASS_PATTERN.test(gpuClass) || count === "")
    return refuse(part, "write cards as gpus=CLASS:COUNT, e.g. gpus=H100-80G:16");
  if (!WHOLE.test(count) || Number(count) > AMOUNT_MAX)
    return refuse(part, `the number of ${gpuClass} cards must be a whole number 0 or more`);
  if (Object.hasOwn(amounts.gpus, gpuClass)) return refuse(part, `${gpuClass} is named twice`);
  amounts.gpus[gpuClass] = Number(count);
  return null;
}

function parseCores(part: string, value: string, amounts: QuotaAmounts): Refusal | null {
  if (amounts.cores !== undefined) return refuse(part, "cores is named twice");
  if (!NUMBER.test(value) || Number(value) > AMOUNT_MAX)
    return refuse(part, "cores must be a number 0 or more, e.g. cores=64");
  amounts.cores = Number(value);
  return null;
}

function parseMemory(part: string, value: string, amounts: QuotaAmounts): Refusal | null {
  if (amounts.memoryGb !== undefined) return refuse(part, "memory is named twice");
  const [, figure, unit] = MEMORY.exec(value) ?? [];
  const scale = MEMORY_UNITS_GIB[(unit ?? "").toLowerCase()];
  if (figure === undefined || scale === undefined)
    return refuse(part, "memory is a number 0 or more with GiB, TiB or GB, e.g. memory=512GiB");
  const memoryGb = Number(figure) * scale;
  if (memoryGb > AMOUNT_MAX) return refuse(part, "memory is more than any fleet holds");
  amounts.memoryGb = memoryGb;
  return null;
}

const PARSERS: Record<string, typeof parseGpus> = {
  gpus: parseGpus,
  cores: parseCores,
  memory: parseMemory,
};

/**
 * Reads `gpus=CLASS:COUNT` (once per class), `cores=N` and `memory=N[GiB|TiB|GB]` separated by
 * commas, in any order. An empty text is no amounts at all (a guarantee of nothing).
 */
export function parseQuotaAmounts(text: string): QuotaSpecResult {
  const amounts: QuotaAmounts = { gpus: {} };
  if (text.trim() === "") return { ok: true, amounts };
  for (const raw of text.split(",")) {
    const part = raw.trim();
    const equals = part.indexOf("=");
    const key = equals < 0 ? part : part.slice(0, equals).trim();
    const value = equals < 0 ? "" : part.slice(equals + 1).trim();
    if (part === "") return refuse(raw, `an empty part; write for example ${QUOTA_SPEC_EXAMPLE}`);
    if (value.startsWith("-") || /:\s*-/.test(value))
      return refuse(part, "amounts cannot be negative");
    const parser = PARSERS[key.toLowerCase()];
    if (!parser)
      return refuse(part, `"${key}" is not a resource; name gpus=CLASS:COUNT, cores=N or memory=N`);
    if (equals < 0 || value === "") return refuse(part, `give ${key} a value, e.g. ${key}=…`);
    const refusal = parser(part, value, amounts);
    if (refusal) return refusal;
  }
  return { ok: true, amounts };
}

/** The text `parseQuotaAmounts` reads back to the same amounts: classes sorted, memory in GiB. */
export function formatQuotaAmounts(amounts: QuotaAmounts): string {
  const parts = Object.keys(amounts.gpus)
    .sort((a, b) => a.localeCompare(b, "en"))
    .map((gpuClass) => `gpus=${gpuClass}:${amounts.gpus[gpuClass] ?? 0}`);
  if (amounts.cores !== undefined) parts.push(`cores=${amounts.cores}`);
  if (amounts.memoryGb !== undefined) parts.push(`memory=${amounts.memoryGb}GiB`);
  return parts.join(",");
}
