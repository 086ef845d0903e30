// The agent's log: one compact line per event to stderr, and the last lines kept in memory so the
// console can show a node's log without an external log store.
export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, string | number | boolean | bigint | undefined>;

export const LOG_RING_LINES = 2000;

/** Keeps the newest `capacity` lines (or entries); older ones are overwritten in place. */
export class LogRing<Line = string> {
  private readonly lines: Line[] = [];
  private next = 0;

  constructor(readonly capacity: number = LOG_RING_LINES) {}

  push(line: Line): void {
    if (this.lines.length < this.capacity) {
      this.lines.push(line);
    } else {
      this.lines[this.next] = line;
    }
    this.next = (this.next + 1) % this.capacity;
  }

  /** Lines oldest first; `limit` keeps only the newest ones. */
  snapshot(limit?: number): Line[] {
    const ordered =
      this.lines.length < this.capacity
        ? [...this.lines]
        : [...this.lines.slice(this.next), ...this.lines.slice(0, this.next)];
    return limit === undefined ? ordered : ordered.slice(Math.max(0, ordered.length - limit));
  }

  get size(): number {
    return this.lines.length;
  }
}

export interface Logger {
  log(level: LogLevel, event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  ring: LogRing;
  write: (line: string) => void;
  nowMs: () => number;
}

export function createLogger(options: LoggerOptions): Logger {
  const log = (level: LogLevel, event: string, fields: LogFields = {}) => {
    const line = formatLogLine(options.nowMs(), level, event, fields);
    options.ring.push(line);
    options.write(line + "\n");
  };
  return {
    log,
    info: (event, fields) => log("info", event, fields),
    warn: (event, fields) => log("warn", event, fields),
    error: (event, fields) => log("error", event, fields),
  };
}

/** `2026-01-02T03:04:05.678Z info connected server=ws://h:8081 node="gpu 1"` */
export function formatLogLine(
  nowMs: number,
  level: LogLevel,
  event: string,
  fields: LogFields,
): string {
  const parts = [new Date(nowMs).toISOString(), level, event];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text = String(value);
    parts.push(`${key}=${/[\s"=]/.test(text) || text === "" ? JSON.stringify(text) : text}`);
  }
  return parts.join(" ");
}
