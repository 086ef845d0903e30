// Builds llama.cpp's `llama-server` from the pinned source: fetch the node-llama-cpp tarball from
// the npm registry, check its sha512, take the git bundle out, clone it, configure with CMake and
// build only the server. Each step is skipped when its result is already there, so a build that
// was stopped resumes (CMake builds incrementally) and a finished one costs one `--version` run.
import { createHash } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import { copyFile, mkdir, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  DEFAULT_NPM_REGISTRY,
  LLAMACPP_CMAKE_FLAGS,
  LLAMACPP_SOURCE,
  LLAMACPP_VERSION,
  llamaCppLayout,
  type LlamaCppLayout,
} from "./llamacpp-source";
import { withBuildLock } from "./build-lock";
import { runLogged, type LineSink } from "./run-logged";

const VERSION_CHECK_TIMEOUT_MS = 30_000;
const FETCH_TIMEOUT_MS = 10 * 60_000;

export interface LlamaCppBuildOptions {
  engineDir: string;
  registryUrl?: string;
  /** Parallel compile jobs; the node's cores by default (the agent is idle while it builds). */
  jobs?: number;
  /** Every line of progress and of the tools' output. */
  onLine: LineSink;
}

export interface BuiltEngine {
  executable: string;
  /** What `llama-server --version` printed, the proof the binary runs here. */
  versionText: string;
  /** How long this call took; a cached build takes about a second. */
  durationMs: number;
  isCached: boolean;
}

/** Builds (or finds) llama-server; throws with the failing step named and its output logged. */
export async function buildLlamaCpp(options: LlamaCppBuildOptions): Promise<BuiltEngine> {
  const layout = llamaCppLayout(options.engineDir);
  await mkdir(path.dirname(layout.rootDir), { recursive: true });
  return withBuildLock(`${layout.rootDir}.lock`, options.onLine, async () => {
    await mkdir(layout.rootDir, { recursive: true });
    // The whole output also goes to build.log beside the build, for an operator on the node.
    const log = createWriteStream(layout.logFile, { flags: "a" });
    const onLine = (line: string) => {
      log.write(`${line}\n`);
      options.onLine(line);
    };
    try {
      return await buildUnlocked(layout, { ...options, onLine });
    } finally {
      log.end();
    }
  });
}

async function buildUnlocked(
  layout: LlamaCppLayout,
  options: LlamaCppBuildOptions,
): Promise<BuiltEngine> {
  const startedMs = Date.now();
  if (existsSync(layout.markerFile) && existsSync(layout.executable)) {
    const versionText = await checkLlamaServer(layout.executable, options.onLine);
    return { executable: layout.executable, versionText, durationMs: 0, isCached: true };
  }
  await fetchSource(layout, options);
  await compile(layout, options);
  const versionText = await checkLlamaServer(layout.executable, options.onLine);
  const durationMs = Date.now() - startedMs;
  const marker = { version: LLAMACPP_VERSION, commit: LLAMACPP_SOURCE.commit, durationMs };
  await writeFile(layout.markerFile, `${JSON.stringify(marker, null, 2)}\n`);
  options.onLine(`llama.cpp ${LLAMACPP_VERSION} built in ${Math.round(durationMs / 1000)} s`);
  return { executable: layout.executable, versionText, durationMs, isCached: false };
}

async function fetchSource(layout: LlamaCppLayout, options: LlamaCppBuildOptions): Promise<void> {
  if (existsSync(path.join(layout.sourceDir, ".git"))) return;
  const { registryPackage: name, packageVersion } = LLAMACPP_SOURCE;
  const registry = (options.registryUrl ?? DEFAULT_NPM_REGISTRY).replace(/\/+$/, "");
  const url = `${registry}/${name}/-/${name}-${packageVersion}.tgz`;
  options.onLine(`fetching ${url}`);
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`fetching ${url} answered HTTP ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  if (integrity !== LLAMACPP_SOURCE.integrity)
    throw new Error(
      `${url}: integrity ${integrity} is not the pinned ${LLAMACPP_SOURCE.integrity}; refusing to build it`,
    );
  await writeFile(layout.tarballFile, bytes);
  const unpackDir = path.join(layout.rootDir, "unpack");
  await rm(unpackDir, { recursive: true, force: true });
  await mkdir(unpackDir);
  const run = (command: string, args: string[], cwd: string) =>
    runLogged(command, args, { cwd, onLine: options.onLine });
  await run("tar", ["-xzf", layout.tarballFile, LLAMACPP_SOURCE.bundlePath], unpackDir);
  const cloneDir = `${layout.sourceDir}.partial`;
  await rm(cloneDir, { recursive: true, force: true });
  await run("git", ["clone", "--quiet", LLAMACPP_SOURCE.bundlePath, cloneDir], unpackDir);
  await run("git", ["checkout", "--quiet", LLAMACPP_SOURCE.commit], cloneDir);
  await rename(cloneDir, layout.sourceDir);
  await rm(unpackDir, { recursive: true, force: true });
  await rm(layout.tarballFile, { force: true });
}

async function compile(layout: LlamaCppLayout, options: LlamaCppBuildOptions): Promise<void> {
  const run = (args: string[]) =>
    runLogged("cmake", args, { cwd: layout.rootDir, onLine: options.onLine });
  if (!existsSync(path.join(layout.buildDir, "CMakeCache.txt"))) {
    options.onLine("configuring llama.cpp (CPU only)");
    const generator = (await hasNinja()) ? ["-G", "Ninja"] : [];
    await run([
      "-S",
      layout.sourceDir,
      "-B",
      layout.buildDir,
      ...generator,
      ...LLAMACPP_CMAKE_FLAGS,
    ]);
  }
  const jobs = options.jobs ?? Math.max(1, os.availableParallelism());
  options.onLine(`building llama-server with ${jobs} jobs (minutes on a few cores)`);
  await run(["--build", layout.buildDir, "--target", "llama-server", "-j", String(jobs)]);
  const built = path.join(layout.buildDir, "bin", "llama-server");
  await mkdir(path.dirname(layout.executable), { recursive: true });
  // Copied then renamed, so a binary at the final path is always a whole one.
  await copyFile(built, `${layout.executable}.partial`);
  await rename(`${layout.executable}.partial`, layout.executable);
}

async function hasNinja(): Promise<boolean> {
  try {
    await runLogged("ninja", ["--version"], { cwd: os.tmpdir(), onLine: () => {} });
    return true;
  } catch {
    return false;
  }
}

/** Runs the binary before it counts: a build that links but cannot start on this CPU is failed. */
async function checkLlamaServer(executable: string, onLine: LineSink): Promise<string> {
  const lines: string[] = [];
  await runLogged(executable, ["--version"], {
    cwd: path.dirname(executable),
    timeoutMs: VERSION_CHECK_TIMEOUT_MS,
    onLine: (line) => {
      lines.push(line);
      onLine(line);
    },
  });
  const versionText = lines.find((line) => line.startsWith("version:")) ?? lines.join(" ");
  if (versionText.trim() === "")
    throw new Error(`${executable} --version printed nothing; the build is not usable`);
  return versionText.trim();
}
