import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { HandshakeGate } from "./handshake-gate";

const tcp = (remotePort: number) =>
  Object.assign(new EventEmitter(), {
    remoteAddress: "10.0.0.9",
    remotePort,
    destroyed: false,
    destroy: vi.fn(),
  });
type Tcp = ReturnType<typeof tcp>;

function gateOf(max: number, more: { queueMax?: number; queueWaitMs?: number } = {}) {
  let nowMs = 0;
  const started: Tcp[] = [];
  const gate = new HandshakeGate({
    max,
    start: (socket) => started.push(socket as Tcp),
    nowMs: () => nowMs,
    ...more,
  });
  return { gate, started, advance: (ms: number) => (nowMs += ms) };
}

describe("HandshakeGate (a reconnect storm let in a few handshakes at a time)", () => {
  it("starts at most `max` handshakes; the rest wait, unread and open, instead of being closed", () => {
    const { gate, started } = gateOf(2);
    const [a, b, c] = [tcp(1), tcp(2), tcp(3)];
    expect([gate.connected(a), gate.connected(b), gate.connected(c)]).toEqual([
      "started",
      "started",
      "queued",
    ]);
    expect(started).toEqual([a, b]);
    expect(c.destroy).not.toHaveBeenCalled();
    expect(gate.handshaking).toBe(2);
    expect(gate.queued).toBe(1);
  });

  it("lets the longest-waiting connection in when a handshake finishes or its socket closes", () => {
    const { gate, started } = gateOf(1);
    const [a, b, c] = [tcp(1), tcp(2), tcp(3)];
    gate.connected(a);
    gate.connected(b);
    gate.connected(c);
    gate.handshaken(a);
    expect(started).toEqual([a, b]);
    // A finished handshake's later close frees nothing more.
    a.emit("close");
    expect(started).toEqual([a, b]);
    b.emit("close");
    expect(started).toEqual([a, b, c]);
    expect(gate.queued).toBe(0);
  });

  it("a newcomer never overtakes a waiting connection", () => {
    const { gate, started } = gateOf(1);
    const [a, b, c] = [tcp(1), tcp(2), tcp(3)];
    gate.connected(a);
    gate.connected(b);
    gate.handshaken(a);
    expect(gate.connected(c)).toBe("queued");
    expect(started).toEqual([a, b]);
  });

  it("closes a connection that waited longer than an agent would, and one past a full queue", () => {
    const { gate, started, advance } = gateOf(1, { queueMax: 2, queueWaitMs: 6_000 });
    const [a, b, c, d] = [tcp(1), tcp(2), tcp(3), tcp(4)];
    gate.connected(a);
    gate.connected(b);
    advance(5_000);
    gate.connected(c);
    expect(gate.connected(d)).toBe("refused");
    expect(d.destroy).toHaveBeenCalledOnce();
    advance(1_500);
    gate.handshaken(a);
    // b waited 6.5 s: closed; c waited 1.5 s: let in.
    expect(b.destroy).toHaveBeenCalledOnce();
    expect(started).toEqual([a, c]);
    expect(gate.refused).toBe(2);
  });

  it("skips a waiting connection that was closed meanwhile", () => {
    const { gate, started } = gateOf(1);
    const [a, b, c] = [tcp(1), tcp(2), tcp(3)];
    gate.connected(a);
    gate.connected(b);
    gate.connected(c);
    b.destroyed = true;
    gate.handshaken(a);
    expect(started).toEqual([a, c]);
  });
});
