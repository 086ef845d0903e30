// Faults the simulator can inject, so the agent's and router's failure paths can be exercised
// against a real process: an engine that never becomes ready, one that dies, errors at a rate, and
// streams cut off midway.

export interface Faults {
  isNeverReady: boolean;
  crashAfterMs: number | undefined;
  /** Fraction 0..1 of /v1 requests answered 500. */
  status5xxRate: number;
  /** Fraction 0..1 of /v1 requests answered 429. */
  status429Rate: number;
  /** A stream's connection is cut after this many `data:` events, without [DONE]. */
  dropStreamAfterChunks: number | undefined;
}

export const NO_FAULTS: Faults = {
  isNeverReady: false,
  crashAfterMs: undefined,
  status5xxRate: 0,
  status429Rate: 0,
  dropStreamAfterChunks: undefined,
};

const FAULT_FORMS =
  "never-ready | crash-after:SECONDS | status-5xx:RATE | status-429:RATE | drop-stream:AFTER_N_CHUNKS";

export function parseFaults(specs: readonly string[]): Faults {
  const faults = { ...NO_FAULTS };
  for (const spec of specs) applyFault(faults, spec.trim());
  return faults;
}

function applyFault(faults: Faults, spec: string): void {
  const [kind, value, ...extra] = spec.split(":");
  const bad = (why: string): never => {
    throw new Error(`--fault "${spec}": ${why}; expected ${FAULT_FORMS}`);
  };
  if (extra.length > 0) bad("too many ':'");
  const number = (): number => {
    const parsed = Number(value);
    if (value === undefined || value === "" || !Number.isFinite(parsed))
      bad(`"${value ?? ""}" is not a number`);
    return parsed;
  };
  const rate = (): number => {
    const parsed = number();
    return parsed >= 0 && parsed <= 1 ? parsed : bad("the rate must be between 0 and 1");
  };
  switch (kind) {
    case "never-ready":
      if (value !== undefined) bad("never-ready takes no value");
      faults.isNeverReady = true;
      return;
    case "crash-after": {
      const seconds = number();
      faults.crashAfterMs = seconds >= 0 ? seconds * 1000 : bad("seconds must not be negative");
      return;
    }
    case "status-5xx":
      faults.status5xxRate = rate();
      return;
    case "status-429":
      faults.status429Rate = rate();
      return;
    case "drop-stream": {
      const chunks = number();
      faults.dropStreamAfterChunks =
        Number.isInteger(chunks) && chunks >= 0
          ? chunks
          : bad("the chunk count must be a whole number");
      return;
    }
    default:
      bad(`unknown fault "${kind ?? ""}"`);
  }
}
