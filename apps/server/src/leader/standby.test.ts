// A control plane leads only once it has read the store after taking over, follows the store on a
// timer while standing by, and retries a takeover whose read failed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { followLeadership, type LeadershipSource } from "./standby";

function fakeSource(leading = false) {
  const listeners = new Set<(leading: boolean) => void>();
  const source: LeadershipSource & { set(value: boolean): void } = {
    isLeader: () => leading,
    confirm: vi.fn(async () => leading),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(value) {
      leading = value;
      for (const listener of listeners) listener(value);
    },
  };
  return source;
}

afterEach(() => vi.useRealTimers());

describe("followLeadership", () => {
  it("reads the store before leading, and only then asks for a pass", async () => {
    vi.useFakeTimers();
    const source = fakeSource();
    let release = (): void => undefined;
    const reload = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const tookOver = vi.fn();
    const following = followLeadership({
      source,
      reload,
      tookOver,
      refreshMs: 1_000,
      log: vi.fn(),
    });
    source.set(true);
    expect(following.isLeader()).toBe(false);
    expect(await following.confirm()).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(reload).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(following.isLeader()).toBe(true);
    expect(await following.confirm()).toBe(true);
    expect(tookOver).toHaveBeenCalledTimes(1);
    following.stop();
  });

  it("follows the store every refresh while standing by, and not while leading", async () => {
    vi.useFakeTimers();
    const source = fakeSource(false);
    const reload = vi.fn(async () => undefined);
    const following = followLeadership({
      source,
      reload,
      tookOver: vi.fn(),
      refreshMs: 1_000,
      log: vi.fn(),
    });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(reload).toHaveBeenCalledTimes(3);
    source.set(true);
    await vi.advanceTimersByTimeAsync(0);
    const afterTakeover = reload.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reload).toHaveBeenCalledTimes(afterTakeover);
    following.stop();
  });

  it("stops leading at once when the lease is lost, and retries a takeover whose read failed", async () => {
    vi.useFakeTimers();
    const source = fakeSource(false);
    let failures = 1;
    const reload = vi.fn(async () => {
      if (failures-- > 0) throw new Error("connection refused");
    });
    const log = vi.fn();
    const following = followLeadership({
      source,
      reload,
      tookOver: vi.fn(),
      refreshMs: 1_000,
      log,
    });
    source.set(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(following.isLeader()).toBe(false);
    expect(log).toHaveBeenCalledWith(
      expect.stringMatching(/taking over: could not read the store \(connection refused\)/),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(following.isLeader()).toBe(true);
    source.set(false);
    expect(following.isLeader()).toBe(false);
    following.stop();
  });
});
