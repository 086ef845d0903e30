// How the benchmark starts an `llmgw server`: from a release as operators install it (its
// `bin/llmgw` launcher: one esbuild bundle, jemalloc preloaded when the system has it, the
// launcher's V8 flags), or from the checkout through tsx (TypeScript compiled at start, with
// esbuild's keepNames). `--from release|checkout` picks one; `--release DIR` reuses an unpacked one.
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { llmgwBin, tempDir } from "@llmgw/testing";
import { buildRelease } from "../release/build";

export type LlmgwFrom = "release" | "checkout";

export interface LlmgwCommand {
  from: LlmgwFrom;
  /** The unpacked release's folder; null from the checkout. */
  releaseDir: string | null;
  /** The program and the arguments before `server`, and what the environment adds. */
  start(
    cpuProfDir?: string,
  ): Promise<{ command: string; args: string[]; env: Record<string, string> }>;
}

export function parseFrom(value: string): LlmgwFrom {
  if (value !== "release" && value !== "checkout")
    throw new Error(`--from is release or checkout, not ${value}`);
  return value;
}

/** The llmgw the benchmark runs; from a release, builds one unless `releaseDir` names one. */
export async function llmgwCommand(
  from: LlmgwFrom,
  releaseDir: string | undefined,
  log: (line: string) => void,
): Promise<LlmgwCommand> {
  if (from === "checkout")
    return {
      from,
      releaseDir: null,
      // Node takes --cpu-prof on its command line only, not in NODE_OPTIONS.
      start: async (cpuProfDir) => ({
        command: process.execPath,
        args: [...profileFlags(cpuProfDir), llmgwBin()],
        env: {},
      }),
    };
  const dir = releaseDir ?? (log("building a release"), (await buildRelease()).releaseDir);
  return {
    from,
    releaseDir: dir,
    start: async (cpuProfDir) => {
      const env: Record<string, string> = {};
      if (cpuProfDir) env.PATH = await profilingNode(cpuProfDir);
      return { command: join(dir, "bin", "llmgw"), args: [], env };
    },
  };
}

function profileFlags(cpuProfDir: string | undefined): string[] {
  return cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [];
}

/**
 * The launcher execs the `node` on PATH with its own flags; to profile the release as it starts
 * itself, a `node` put first on PATH adds --cpu-prof and execs this one. Answers the new PATH.
 */
async function profilingNode(cpuProfDir: string): Promise<string> {
  const dir = (await tempDir("bench-profiling-node")).path;
  const script = join(dir, "node");
  const flags = profileFlags(cpuProfDir).map((flag) => `'${flag.replaceAll("'", "'\\''")}'`);
  await writeFile(script, `#!/bin/sh\nexec '${process.execPath}' ${flags.join(" ")} "$@"\n`);
  await chmod(script, 0o755);
  return `${dir}:${process.env.PATH ?? ""}`;
}
