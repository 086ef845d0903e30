// Silent death of the control plane: a frozen process or a dead machine behind a live route never
// closes the socket, so the agent only learns of it from the silence. After idleMs without a
// frame it sends a Ping; when pingTimeoutMs more pass without any frame, the peer is dead.
import type { Timers } from "./connection-options";

/** 5 s of silence, then a Ping answered within 3 s: a dead control plane is left within 8 s. */
export const DEFAULT_IDLE_MS = 5000;
export const DEFAULT_PING_TIMEOUT_MS = 3000;

export interface LivenessOptions {
  timers: Timers;
  idleMs: number;
  pingTimeoutMs: number;
  /** Sends a Ping: the server answers it with a Pong. */
  ping(): void;
  /** Nothing arrived for silentMs, the ping included. */
  dead(silentMs: number): void;
}

export interface Liveness {
  /** Any frame from the server: a pong, an ack, a request. */
  heard(): void;
  stop(): void;
}

export function watchLiveness(options: LivenessOptions): Liveness {
  const { timers } = options;
  let timer: unknown;
  let stopped = false;
  const arm = () => {
    timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      options.ping();
      timer = timers.setTimeout(
        () => options.dead(options.idleMs + options.pingTimeoutMs),
        options.pingTimeoutMs,
      );
    }, options.idleMs);
  };
  arm();
  return {
    heard() {
      if (!stopped) arm();
    },
    stop() {
      stopped = true;
      timers.clearTimeout(timer);
    },
  };
}
