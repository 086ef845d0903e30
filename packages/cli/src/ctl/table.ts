// Aligned plain-text tables for the terminal.

export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n") + "\n";
}

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return "-";
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

export function formatAge(isoTime: string, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - Date.parse(isoTime)) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** One line of at most `widthMax` characters; a long error keeps its start, which names the cause. */
export function truncate(text: string, widthMax: number): string {
  const oneLine = text.replace(/\s*\n\s*/g, " ");
  return oneLine.length <= widthMax ? oneLine : `${oneLine.slice(0, widthMax - 1)}…`;
}

/** `████████░░░░` for used of total; an empty class draws an empty bar rather than dividing by 0. */
export function usageBar(used: number, total: number, width = 12): string {
  const filled = total > 0 ? Math.min(width, Math.round((used / total) * width)) : 0;
  return "█".repeat(filled) + "░".repeat(width - filled);
}
