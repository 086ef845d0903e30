// A replica's state note comes from its agent as an English sentence (apps/agent/src/replicas/
// replica.ts and cache/fetch.ts write a fixed set of them). The console reads those sentences back
// into a key and its values, so a Turkish page says them in Turkish; a sentence it does not know
// (an engine's own error text, a newer agent) is shown as the agent wrote it.

type SentenceKey =
  | "fetching"
  | "started"
  | "ready"
  | "adopted"
  | "adopting"
  | "stopped"
  | "stoppedBecause"
  | "startTimeout"
  | "couldNotStart"
  | "fetchStalled";
type WeightsKey =
  | "weights.simulator"
  | "weights.cache"
  | "weights.fetched"
  | "weights.hubSimulated"
  | "weights.hubByEngine"
  | "weights.localSimulated"
  | "weights.inPlace";

/** A translation key of the `replicas` namespace (under `note.`) and its values. */
export interface ReplicaNote<K extends string = SentenceKey | WeightsKey> {
  key: K;
  values: Record<string, string>;
}

type Pattern<K extends string> = readonly [RegExp, K, readonly string[]];

// Whole sentences about the replica, most specific first.
const SENTENCES: readonly Pattern<SentenceKey>[] = [
  [/^fetching weights$/, "fetching", []],
  [/^engine started \(pid (\d+)\); (.+)$/, "started", ["pid", "weights"]],
  [/^ready$/, "ready", []],
  [/^adopted: engine pid (\d+) kept running across an agent restart$/, "adopted", ["pid"]],
  [/^adopting engine pid (\d+) left running by a previous agent$/, "adopting", ["pid"]],
  [/^stopped$/, "stopped", []],
  [/^stopped: (.+)$/, "stoppedBecause", ["reason"]],
  [
    /^not ready within (\d+) s \(start timeout; last health answer: (.+)\)$/,
    "startTimeout",
    ["seconds", "answer"],
  ],
  [/^could not start the engine: (.+)$/, "couldNotStart", ["error"]],
  [/^fetch stalled: (.+)$/, "fetchStalled", ["error"]],
];

// What the agent says about the weights after "engine started (pid N); ".
const WEIGHT_NOTES: readonly Pattern<WeightsKey>[] = [
  [/^weights not fetched: the simulator stands in for the engine$/, "weights.simulator", []],
  [/^weights from cache (.+)$/, "weights.cache", ["name"]],
  [/^fetched (\d+) bytes into cache (.+)$/, "weights.fetched", ["bytes", "name"]],
  [/^hub id (.+) not fetched: the simulator loads no weights$/, "weights.hubSimulated", ["id"]],
  [/^hub id (.+) loaded by the engine from (.+)$/, "weights.hubByEngine", ["id", "hub"]],
  [/^(.+) not read: the simulator loads no weights$/, "weights.localSimulated", ["path"]],
  [/^weights referenced in place at (.+)$/, "weights.inPlace", ["path"]],
];

const STAND_IN = / \(simulated node: sim-engine runs in place of ([\w.-]+)\)$/;

function match<K extends string>(patterns: readonly Pattern<K>[], text: string) {
  for (const [pattern, key, names] of patterns) {
    const found = pattern.exec(text);
    if (found) {
      const values = Object.fromEntries(names.map((name, i) => [name, found[i + 1] ?? ""]));
      const note: ReplicaNote<K> = { key, values };
      return note;
    }
  }
  return null;
}

/**
 * The agent's sentence as a key and values, with `standIn` set to the engine the simulator stands
 * in for; null for a sentence it does not know.
 */
export function parseReplicaMessage(message: string): ReplicaNote<SentenceKey> | null {
  const standIn = STAND_IN.exec(message);
  const sentence = standIn ? message.slice(0, standIn.index) : message;
  const note = match(SENTENCES, sentence.trim());
  if (!note) return null;
  return standIn ? { ...note, values: { ...note.values, standIn: standIn[1] ?? "" } } : note;
}

/** The weights part of an "engine started" note, as a key and values, or null when unknown. */
export function parseWeightsNote(text: string): ReplicaNote<WeightsKey> | null {
  return match(WEIGHT_NOTES, text.trim());
}

/** Every key the parsers answer, so a test can hold the locale files to them. */
export const REPLICA_NOTE_KEYS = [...SENTENCES, ...WEIGHT_NOTES].map(([, key]) => key);
