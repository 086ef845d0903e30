// The structured records an agent sends beside its log lines, one JSON object per line. They are
// read as untrusted input: a record that does not parse or does not fit is left out, never passed on.
import type { LogRecordView } from "@llmgw/api";
import { z } from "zod";

const wireRecordSchema = z.object({
  time_ms: z.number().finite(),
  source: z.string().max(200),
  level: z.enum(["debug", "info", "warn", "error"]),
  message: z.string(),
  request_id: z.string().max(128).optional(),
});

export function readRecords(jsonLines: readonly string[]): LogRecordView[] {
  const records: LogRecordView[] = [];
  for (const line of jsonLines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const record = wireRecordSchema.safeParse(parsed);
    if (!record.success) continue;
    const { time_ms: timeMs, request_id: requestId, ...rest } = record.data;
    records.push({ timeMs, ...rest, ...(requestId !== undefined && { requestId }) });
  }
  return records;
}
