// A storm's dials, optionally paced to the harness's event loop (`--dials-per-turn`). Every
// simulated agent's reconnect timer comes due within the same half second, and Node runs every due
// timer before it reads any socket, so setting up hundreds of dials back to back (the socket, its
// TLS session, the upgrade request) can hold the harness's loop for a second or more while the
// server's 64 handshake places wait for these very clients to answer; a real fleet dials from 2,000
// machines and never stalls that way. Paced, a dial that comes due waits for its turn and at most
// `perTurn` start in one turn of the loop, so handshakes under way get their replies between turns.
// The storm's clock still runs from the cut, so any time a dial waits here counts against the
// result. Off by default: in a niced 1,000-agent run on a loaded machine 16 a turn made the storm
// slower (a starved loop turns a few times a second), so it is an experiment, not the bench's method.

/** Answers a `turn()` that resolves when the caller may dial; `perTurn` 0 lets every dial go at once. */
export function dialPacer(perTurn: number): () => Promise<void> {
  const waiting: Array<() => void> = [];
  let isArmed = false;
  const drain = () => {
    for (const go of waiting.splice(0, perTurn)) go();
    if (waiting.length > 0) setImmediate(drain);
    else isArmed = false;
  };
  return () => {
    if (perTurn <= 0) return Promise.resolve();
    return new Promise<void>((go) => {
      waiting.push(go);
      if (isArmed) return;
      isArmed = true;
      setImmediate(drain);
    });
  };
}
