// The agent's replica sentences (apps/agent/src/replicas/replica.ts, cache/fetch.ts) read back
// into keys and values, so the console can say them in Turkish; anything else is left alone.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReplicaMessage, parseWeightsNote, REPLICA_NOTE_KEYS } from "./replica-message";

describe("parseReplicaMessage", () => {
  it("reads a simulated replica's start, with the engine the simulator stands in for", () => {
    expect(
      parseReplicaMessage(
        "engine started (pid 4242); weights not fetched: the simulator stands in for the engine " +
          "(simulated node: sim-engine runs in place of vllm)",
      ),
    ).toEqual({
      key: "started",
      values: {
        pid: "4242",
        weights: "weights not fetched: the simulator stands in for the engine",
        standIn: "vllm",
      },
    });
    expect(
      parseReplicaMessage("ready (simulated node: sim-engine runs in place of llama.cpp)"),
    ).toEqual({ key: "ready", values: { standIn: "llama.cpp" } });
  });

  it("reads each sentence the agent writes", () => {
    const cases: [string, string, Record<string, string>][] = [
      ["fetching weights", "fetching", {}],
      ["adopted: engine pid 77 kept running across an agent restart", "adopted", { pid: "77" }],
      ["adopting engine pid 77 left running by a previous agent", "adopting", { pid: "77" }],
      ["stopped", "stopped", {}],
      ["stopped: model removed", "stoppedBecause", { reason: "model removed" }],
      [
        "not ready within 600 s (start timeout; last health answer: 503)",
        "startTimeout",
        { seconds: "600", answer: "503" },
      ],
      ["could not start the engine: spawn ENOENT", "couldNotStart", { error: "spawn ENOENT" }],
      ["fetch stalled: no bytes for 60 s", "fetchStalled", { error: "no bytes for 60 s" }],
    ];
    for (const [sentence, key, values] of cases)
      expect(parseReplicaMessage(sentence), sentence).toEqual({ key, values });
  });

  it("leaves a sentence it does not know to be shown as written", () => {
    expect(parseReplicaMessage("CUDA out of memory")).toBeNull();
  });
});

describe("parseWeightsNote", () => {
  it("reads where the weights came from", () => {
    expect(parseWeightsNote("fetched 1024 bytes into cache qwen-7b")).toEqual({
      key: "weights.fetched",
      values: { bytes: "1024", name: "qwen-7b" },
    });
    expect(parseWeightsNote("weights referenced in place at /models/q")).toEqual({
      key: "weights.inPlace",
      values: { path: "/models/q" },
    });
    expect(parseWeightsNote("something else")).toBeNull();
  });
});

describe("replica notes in the locale files", () => {
  it("has every note the parsers answer, in English and Turkish", () => {
    for (const language of ["en", "tr"]) {
      const file = join(import.meta.dirname, "..", "locales", language, "replicas.json");
      const notes = (JSON.parse(readFileSync(file, "utf8")) as { note: Record<string, unknown> })
        .note;
      for (const key of [...REPLICA_NOTE_KEYS, "standIn"]) {
        const value = key
          .split(".")
          .reduce<unknown>((tree, part) => (tree as Record<string, unknown>)?.[part], notes);
        expect(typeof value, `${language}: note.${key}`).toBe("string");
      }
    }
  });
});
