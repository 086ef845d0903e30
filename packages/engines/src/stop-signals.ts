// How every long-running llmgw process (server, agent, the engines' stand-ins and gates) hears that
// it should stop. A stop that takes time (an agent stopping its engines, a server writing its
// fleet's last-seen times) must survive the second signal that often follows the first: a
// process-group SIGTERM (systemd's default, a test harness's stop) reaches `llmgw dev` and its
// children together, and dev then sends its children a SIGTERM of its own. With `process.once`, the
// repeat finds no listener, Node falls back to the default action and the process dies mid-stop
// (an agent leaving its engines running). These listeners stay until disposed: the first SIGINT or
// SIGTERM stops, later ones are only reported.

export interface StopSignals {
  /** Settles with the first SIGINT or SIGTERM. */
  readonly received: Promise<NodeJS.Signals>;
  /** Removes the listeners; call it once the stop has finished. */
  dispose(): void;
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

export function listenForStopSignals(
  onRepeat: (signal: NodeJS.Signals) => void = () => undefined,
): StopSignals {
  let first: NodeJS.Signals | undefined;
  let resolve: (signal: NodeJS.Signals) => void = () => undefined;
  const received = new Promise<NodeJS.Signals>((settle) => (resolve = settle));
  const listener = (signal: NodeJS.Signals): void => {
    if (first === undefined) {
      first = signal;
      resolve(signal);
    } else onRepeat(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, listener);
  return {
    received,
    dispose: () => {
      for (const signal of STOP_SIGNALS) process.off(signal, listener);
    },
  };
}
