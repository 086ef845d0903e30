// Builds a release (`scripts/release.mjs`) into a temp folder and unpacks it, for the benchmarks
// that start the control plane as an operator installs it.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnProcess, tempDir } from "@llmgw/testing";

const ROOT = join(import.meta.dirname, "..", "..");

/** The checkout's version, which a release is built as. */
export function checkoutVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string })
    .version;
}

/** Builds and unpacks a release; answers its folder and sizes. */
export async function buildRelease(version = checkoutVersion()) {
  const outDir = (await tempDir("bench-release-out")).path;
  const build = spawnProcess(
    process.execPath,
    [join(ROOT, "scripts", "release.mjs"), "--version", version, "--out", outDir],
    { name: "release build", cwd: ROOT },
  );
  const exit = await build.exited;
  if (exit.code !== 0) throw new Error(`the release build failed:\n${build.output()}`);
  const tarball = join(outDir, `llmgw-${version}-linux-x64.tar.gz`);
  const unpackDir = (await tempDir("bench-release")).path;
  const untar = spawnSync("tar", ["-xzf", tarball, "-C", unpackDir]);
  if (untar.status !== 0) throw new Error(`tar -x failed: ${untar.stderr.toString()}`);
  const releaseDir = join(unpackDir, `llmgw-${version}`);
  return {
    releaseDir,
    tarballBytes: statSync(tarball).size,
    bundleBytes: statSync(join(releaseDir, "lib", "llmgw.mjs")).size,
  };
}
