// The adapter's command line checked against the real `llama-server --help` of the pinned release
// the agent builds (fixtures/llama-server-help.txt, saved from that binary): every flag it passes
// exists there, the key variable is the one llama-server reads, and the metric names are the ones
// its /metrics publishes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createLlamaCppAdapter, LLAMACPP_METRIC_NAMES } from "./llamacpp";

const HELP = readFileSync(new URL("./fixtures/llama-server-help.txt", import.meta.url), "utf8");

/** The help prints spellings left of this column and the description right of it. */
const DESCRIPTION_COLUMN = 40;

/** Every `-x`/`--xyz` spelling the help lists at the start of an option line. */
function knownFlags(help: string): Set<string> {
  const flags = new Set<string>();
  for (const line of help.split("\n")) {
    const head = line.startsWith("-") ? line.slice(0, DESCRIPTION_COLUMN) : "";
    for (const flag of head.matchAll(/(--?[a-zA-Z][\w-]*)/g)) flags.add(flag[1] ?? "");
  }
  return flags;
}

describe("llama.cpp adapter against the real llama-server --help", () => {
  const command = createLlamaCppAdapter({ executable: "/cache/llama-server" }).buildCommand({
    replicaId: "r1",
    model: "/w/tiny.gguf",
    servedModelName: "tiny",
    host: "127.0.0.1",
    port: 9000,
    gpus: [],
    contextTokensMax: 512,
    isEmbedding: true,
    apiKey: "k3y",
  });

  it("passes only flags this release knows", () => {
    const flags = knownFlags(HELP);
    expect(flags.size).toBeGreaterThan(100);
    const passed = command.args.filter((arg) => arg.startsWith("-"));
    expect(passed.length).toBeGreaterThan(5);
    for (const flag of passed) expect(flags, `llama-server has no ${flag}`).toContain(flag);
  });

  it("gives the key in the variable llama-server reads as --api-key, never in argv", () => {
    expect(HELP).toMatch(/--api-key KEY[\s\S]{0,400}\(env: LLAMA_API_KEY\)/);
    expect(command.env.LLAMA_API_KEY).toBe("k3y");
    expect(command.args.join(" ")).not.toContain("k3y");
  });

  it("scrapes the queue metrics this release publishes with --metrics", () => {
    expect(command.args).toContain("--metrics");
    expect(LLAMACPP_METRIC_NAMES.runningRequests).toContain("llamacpp:requests_processing");
    expect(LLAMACPP_METRIC_NAMES.waitingRequests).toContain("llamacpp:requests_deferred");
  });
});
