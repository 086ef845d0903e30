import { describe, expect, it } from "vitest";
import { LOAD_READING_STALE_MS, ReplicaLoadBook } from "./replica-load";

describe("ReplicaLoadBook.inFlightOf", () => {
  it("counts running and waiting requests of a fresh reading", () => {
    const load = new ReplicaLoadBook();
    load.record("r1", { running: 2, waiting: 3 }, 1_000);
    load.record("r2", { running: 0, waiting: null }, 1_000);
    expect(load.inFlightOf("r1", 1_000)).toBe(5);
    expect(load.inFlightOf("r2", 1_000)).toBe(0);
  });

  it("knows nothing of a replica never read, read stale, failed or silent", () => {
    const load = new ReplicaLoadBook();
    load.record("stale", { running: 0, waiting: 0 }, 0);
    load.record("failed", { running: 1, waiting: 0 }, 0);
    load.record("failed", null, 1);
    load.record("silent", { running: null, waiting: null }, 0);
    expect(load.inFlightOf("never", 0)).toBeNull();
    expect(load.inFlightOf("stale", LOAD_READING_STALE_MS + 1)).toBeNull();
    expect(load.inFlightOf("failed", 1)).toBeNull();
    expect(load.inFlightOf("silent", 0)).toBeNull();
  });
});
