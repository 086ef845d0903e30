// The bytes of one WebSocket message, as `ws` hands them over, without copying what needs none.
// Every heartbeat passes through here (2,000 agents: 1,000 a second), so a copy per frame is paid
// at fleet size for nothing: `ws` gives each message its own buffer, which nothing else holds.
import type { RawData } from "ws";

export function frameBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  // A fragmented message arrives as its fragments; an ArrayBuffer only if binaryType asks for it.
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
