import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { HandshakeGate, type HandshakeGateOptions } from "./handshake-gate";

const tcp = (remotePort: number, remoteAddress = "10.0.0.9") =>
  Object.assign(new EventEmitter(), {
    remoteAddress,
    remotePort,
    destroyed: false,
    destroy: vi.fn(),
  });
type Tcp = ReturnType<typeof tcp>;

function gateOf(max: number, more: Partial<HandshakeGateOptions> = {}) {
  let nowMs = 0;
  const started: Tcp[] = [];
  const timers: Array<{ atMs: number; callback: () => void }> = [];
  const gate = new HandshakeGate({
    max,
    start: (socket) => started.push(socket as Tcp),
    nowMs: () => nowMs,
    contestedMs: 2_000,
    later: (callback, delayMs) => timers.push({ atMs: nowMs + delayMs, callback }),
    ...more,
  });
  /** Moves the clock on, running the timers that fall due. */
  const advance = (ms: number) => {
    nowMs += ms;
    for (const due of timers.filter((timer) => timer.atMs <= nowMs)) {
      timers.splice(timers.indexOf(due), 1);
      due.callback();
    }
  };
  return { gate, started, timers, advance };
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

  it("tells `start` how long each connection waited for its place (the storm trace's longest wait)", () => {
    const waits: number[] = [];
    const { gate, advance } = gateOf(1, { start: (_socket, waitedMs) => waits.push(waitedMs) });
    const [a, b] = [tcp(1), tcp(2)];
    gate.connected(a);
    advance(300);
    gate.connected(b);
    advance(1_200);
    gate.handshaken(a);
    expect(waits).toEqual([0, 1_200]);
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

describe("HandshakeGate (one address cannot starve the others)", () => {
  const attacker = (port: number) => tcp(port, "198.51.100.7");
  const agent = (port: number) => tcp(port, "10.0.0.1");

  it("gives a freed place to the waiting address with the fewest handshakes, not the oldest", () => {
    const { gate, started } = gateOf(2);
    const [a1, a2, a3, b1] = [attacker(1), attacker(2), attacker(3), agent(1)];
    for (const socket of [a1, a2, a3, b1]) gate.connected(socket);
    gate.handshaken(a1);
    expect(started).toEqual([a1, a2, b1]);
    gate.handshaken(a2);
    expect(started).toEqual([a1, a2, b1, a3]);
  });

  it("takes addresses with as many handshakes in turn", () => {
    const { gate, started } = gateOf(1);
    const first = attacker(9);
    gate.connected(first);
    const [a1, a2, b1, b2] = [attacker(1), attacker(2), agent(1), agent(2)];
    for (const socket of [a1, a2, b1, b2]) gate.connected(socket);
    for (let turn = 0; turn < 4; turn += 1) gate.handshaken(started.at(-1) ?? first);
    expect(started).toEqual([first, b1, a1, b2, a2]);
  });

  it("cuts the oldest idle handshake of an address holding every place once another waits 2 s", () => {
    const cuts: string[] = [];
    const { gate, started, advance } = gateOf(2, { onCut: (address) => cuts.push(address) });
    const [a1, a2, b1] = [attacker(1), attacker(2), agent(1)];
    gate.connected(a1);
    advance(500);
    gate.connected(a2);
    expect(gate.connected(b1)).toBe("queued");
    advance(1_499);
    expect(a1.destroy).not.toHaveBeenCalled();
    advance(1);
    expect(a1.destroy).toHaveBeenCalledOnce();
    expect(a2.destroy).not.toHaveBeenCalled();
    expect(started).toEqual([a1, a2, b1]);
    expect(gate.cut).toBe(1);
    expect(cuts).toEqual(["198.51.100.7"]);
    // Its socket's close comes later and frees nothing twice.
    a1.emit("close");
    expect(gate.handshaking).toBe(2);
  });

  it("cuts nothing for a fleet behind one address, which keeps every place", () => {
    const { gate, started, timers, advance } = gateOf(2);
    const fleet = [attacker(1), attacker(2), attacker(3)];
    for (const socket of fleet) gate.connected(socket);
    advance(5_000);
    expect(timers).toEqual([]);
    expect(fleet.map((socket) => socket.destroy.mock.calls.length)).toEqual([0, 0, 0]);
    expect(started).toEqual(fleet.slice(0, 2));
  });

  it("cuts nothing while the waiting address holds as many places, less one", () => {
    const { gate, advance } = gateOf(3);
    const [a1, a2, b1, b2] = [attacker(1), attacker(2), agent(1), agent(2)];
    for (const socket of [a1, a2, b1, b2]) gate.connected(socket);
    advance(10_000);
    expect([a1, a2, b1].map((socket) => socket.destroy.mock.calls.length)).toEqual([0, 0, 0]);
    expect(gate.cut).toBe(0);
  });

  it("a full queue drops the newest waiting connection of the largest address for a newcomer", () => {
    const { gate, started } = gateOf(1, { queueMax: 3 });
    const [a0, a1, a2, a3, b1] = [attacker(0), attacker(1), attacker(2), attacker(3), agent(1)];
    for (const socket of [a0, a1, a2, a3]) gate.connected(socket);
    expect(gate.connected(b1)).toBe("queued");
    expect(a3.destroy).toHaveBeenCalledOnce();
    expect(b1.destroy).not.toHaveBeenCalled();
    gate.handshaken(a0);
    expect(started).toEqual([a0, b1]);
    // The largest address itself, at a full queue, is refused as before.
    expect(gate.connected(attacker(4))).toBe("queued");
    expect(gate.connected(attacker(5))).toBe("refused");
  });
});

describe("HandshakeGate (a whole fleet's storm from one address)", () => {
  /** A seeded generator, so the order in which handshakes finish is the same on every run. */
  function seeded(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }

  it("lets all 2,000 dials from 127.0.0.1 in, in the order they came, and closes none", () => {
    const { gate, started, timers, advance } = gateOf(64);
    const random = seeded(19);
    const fleet = Array.from({ length: 2_000 }, (_, at) => tcp(40_000 + at, "127.0.0.1"));
    let handshakingMax = 0;
    for (const socket of fleet) gate.connected(socket);
    // Handshakes finish in a shuffled order, a few milliseconds apart, some by their socket's
    // close instead (a peer that went away): each freed place must go to the next in line.
    const running = new Set<Tcp>();
    let seen = 0;
    while (gate.handshaking > 0) {
      handshakingMax = Math.max(handshakingMax, gate.handshaking);
      for (; seen < started.length; seen += 1) running.add(started[seen] as Tcp);
      const done = [...running][Math.floor(random() * running.size)] as Tcp;
      running.delete(done);
      advance(1 + Math.floor(random() * 3));
      if (random() < 0.1) done.emit("close");
      else gate.handshaken(done);
    }
    expect(started).toEqual(fleet);
    expect(handshakingMax).toBe(64);
    expect(fleet.filter((socket) => socket.destroy.mock.calls.length > 0)).toEqual([]);
    expect([gate.refused, gate.cut, gate.queued, timers.length]).toEqual([0, 0, 0, 0]);
  });
});
