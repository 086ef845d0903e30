// Reads perftest's result table by its heading. The columns are found by name ("BW average",
// "BW peak", "MsgRate") with their unit in brackets, never by position: perftest adds columns
// between releases and with options (--report-min-bw, -b), and prints MB/sec unless --report_gbits.

export interface PerftestResult {
  averageGbps: number;
  peakGbps: number;
  messageRateMpps: number;
}

const HEADING_MARK = "#bytes";
// perftest's MB is 2^20 bytes (MB/sec = bytes / 0x100000 per second).
const GBPS_PER_MBYTES_PER_S = (1024 * 1024 * 8) / 1e9;

interface Column {
  name: string;
  unit: string;
}

/**
 * "BW peak[Gb/sec]" → { name: "BW peak", unit: "Gb/sec" }; "#bytes" has no unit. A name is a word
 * and any lower-case words after it, so single or many spaces between columns read alike.
 */
function headingColumns(line: string): Column[] {
  return [...line.matchAll(/(#?[A-Za-z]+(?: [a-z]+)*)(?:\[([^\]]*)\])?/g)].map((match) => ({
    name: match[1] ?? "",
    unit: match[2] ?? "",
  }));
}

function toGbps(value: number, unit: string): number {
  if (unit === "Gb/sec") return value;
  if (unit === "MB/sec") return value * GBPS_PER_MBYTES_PER_S;
  throw new Error(`perftest reported bandwidth in "${unit}", which this agent does not read`);
}

function valueOf(
  columns: Column[],
  cells: string[],
  name: string,
): { value: number; unit: string } {
  const index = columns.findIndex((column) => column.name === name);
  const column = columns[index];
  if (column === undefined) throw new Error(`perftest's table has no "${name}" column`);
  const value = Number(cells[index]);
  if (!Number.isFinite(value))
    throw new Error(`perftest's "${name}" cell reads "${cells[index] ?? ""}", not a number`);
  return { value, unit: column.unit };
}

/** The last result row under the last heading; throws saying what is missing. */
export function parsePerftestTable(output: string): PerftestResult {
  const lines = output.split(/\r?\n/);
  const headingAt = lines.findLastIndex((line) => line.trim().startsWith(HEADING_MARK));
  if (headingAt < 0) throw new Error("perftest printed no result table (no #bytes heading)");
  const columns = headingColumns(lines[headingAt] ?? "");
  const rows = lines
    .slice(headingAt + 1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cells) => /^\d+$/.test(cells[0] ?? ""));
  const cells = rows.at(-1);
  if (cells === undefined) throw new Error("perftest printed its table's heading but no result");
  const average = valueOf(columns, cells, "BW average");
  const peak = valueOf(columns, cells, "BW peak");
  const rate = valueOf(columns, cells, "MsgRate");
  return {
    averageGbps: toGbps(average.value, average.unit),
    peakGbps: toGbps(peak.value, peak.unit),
    messageRateMpps: rate.value,
  };
}
