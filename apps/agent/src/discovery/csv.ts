// A small CSV reader for nvidia-smi's `--format=csv` output. nvidia-smi separates fields with
// ", " and does not quote today, but a value such as a product name could carry a comma on some
// driver, so double-quoted fields (with "" as an escaped quote) are honoured as well.

/** Splits one CSV line into trimmed fields. */
function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let current = "";
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (inQuotes) {
      if (char === '"' && line[i + 1] === '"') {
        current += '"';
        i++;
      } else if (char === '"') {
        inQuotes = false;
      } else {
        current += char;
      }
    } else if (char === '"' && current.trim() === "") {
      current = "";
      inQuotes = true;
    } else if (char === ",") {
      fields.push(current.trim());
      current = "";
    } else {
      current += char;
    }
  }
  fields.push(current.trim());
  return fields;
}

/** Splits CSV text into rows of trimmed fields, skipping blank lines. */
export function parseCsvRows(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map(splitCsvLine);
}
