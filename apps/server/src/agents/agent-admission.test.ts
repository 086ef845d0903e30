import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AgentAdmission,
  meterPreRegister,
  PRE_REGISTER_BYTES_MAX,
  REGISTER_TIMEOUT_MS,
  burstLimitedLog,
  throttledLog,
} from "./agent-admission";

function fakeSocket(remoteAddress: string) {
  const socket = Object.assign(new EventEmitter(), { remoteAddress, destroy: vi.fn() });
  return socket as unknown as Socket & { destroy: ReturnType<typeof vi.fn> };
}

afterEach(() => vi.useRealTimers());

describe("AgentAdmission", () => {
  it("counts unregistered sockets per address and marks those past the cap", () => {
    const admission = new AgentAdmission(2);
    const a = [1, 2, 3].map(() => admission.accept(fakeSocket("10.0.0.1")));
    const other = admission.accept(fakeSocket("10.0.0.2"));
    expect(a.map((p) => p.isOverCap)).toEqual([false, false, true]);
    expect(other.isOverCap).toBe(false);
    expect(admission.refusal("10.0.0.1")).toMatchObject({
      status: 429,
      headers: { "retry-after": "5" },
    });
    expect(admission.refusal("10.0.0.1").message).toMatch(
      /3 sockets from 10\.0\.0\.1 .*\(at most 2; LLMGW_AGENT_UNREGISTERED_PER_ADDRESS raises it\)/,
    );
  });

  it("frees a place when a socket registers or closes, once each", () => {
    const admission = new AgentAdmission(1);
    const first = fakeSocket("10.0.0.1");
    admission.accept(first).admit();
    first.emit("close");
    expect(admission.unregisteredFrom("10.0.0.1")).toBe(0);
    const second = fakeSocket("10.0.0.1");
    expect(admission.accept(second).isOverCap).toBe(false);
    second.emit("close");
    expect(admission.accept(fakeSocket("10.0.0.1")).isOverCap).toBe(false);
  });

  it("destroys a socket that has not registered in time, and not one that has", () => {
    vi.useFakeTimers();
    const admission = new AgentAdmission(5);
    const idle = fakeSocket("10.0.0.1");
    const agent = fakeSocket("10.0.0.1");
    admission.accept(idle);
    admission.accept(agent).admit();
    vi.advanceTimersByTime(REGISTER_TIMEOUT_MS);
    expect(idle.destroy).toHaveBeenCalledOnce();
    expect(agent.destroy).not.toHaveBeenCalled();
  });
});

describe("meterPreRegister", () => {
  it("calls overBudget once past the budget, overAgain after, and nothing once stopped", () => {
    const socket = fakeSocket("10.0.0.1");
    const overBudget = vi.fn();
    const overAgain = vi.fn();
    const stop = meterPreRegister(socket, overBudget, overAgain);
    socket.emit("data", Buffer.alloc(PRE_REGISTER_BYTES_MAX));
    expect(overBudget).not.toHaveBeenCalled();
    socket.emit("data", Buffer.alloc(1));
    socket.emit("data", Buffer.alloc(1));
    expect(overBudget).toHaveBeenCalledOnce();
    expect(overAgain).toHaveBeenCalledOnce();
    stop();
    socket.emit("data", Buffer.alloc(1));
    expect(overAgain).toHaveBeenCalledOnce();
  });
});

describe("throttledLog", () => {
  it("writes at most one line per interval and says how many it held back", () => {
    let nowMs = 0;
    const lines: string[] = [];
    const log = throttledLog(
      (line) => lines.push(line),
      10_000,
      () => nowMs,
    );
    log("a");
    log("b");
    log("c");
    nowMs = 10_000;
    log("d");
    expect(lines).toEqual(["a", "d (and 2 more like it since the last line)"]);
  });
});

describe("burstLimitedLog", () => {
  it("passes the first lines of a burst and counts the rest once the interval ends", () => {
    vi.useFakeTimers();
    let nowMs = 0;
    const lines: string[] = [];
    const log = burstLimitedLog(
      (line) => lines.push(line),
      { limit: 2, intervalMs: 1_000, what: "nodes disconnected" },
      () => nowMs,
    );
    for (let i = 0; i < 2_000; i++) log(`node ${i} disconnected`);
    expect(lines).toEqual(["node 0 disconnected", "node 1 disconnected"]);
    nowMs = 1_000;
    vi.advanceTimersByTime(1_000);
    expect(lines.at(-1)).toBe(
      "1998 more lines like these (nodes disconnected) left out in 1000 ms",
    );
    log("node 5 registered");
    expect(lines).toHaveLength(4);
    expect(lines.at(-1)).toBe("node 5 registered");
    vi.useRealTimers();
  });
});
