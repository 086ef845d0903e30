import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { execProgram, type ExecFn } from "../discovery/exec";
import { detectEngines, SGLANG_PROBE } from "./engine-detect";

/** The real interpreter behind python3 (pyenv and similar shims need their own environment). */
function realPython(): string | undefined {
  try {
    return execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
      encoding: "utf8",
    }).trim();
  } catch {
    return undefined;
  }
}

const PYTHON = realPython();
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "llmgw-engines-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A shell script that exits 0; "wx" refuses to write through an existing file or link. */
function fakeExecutable(dir: string, name: string): void {
  writeFileSync(path.join(dir, name), "#!/bin/sh\nexit 0\n", { flag: "wx", mode: 0o755 });
}

/** A bin directory holding the given fake executables and, when asked, a link to python3. */
function binWith(executables: string[], linkPython: boolean): string {
  const bin = tempDir();
  if (linkPython && PYTHON !== undefined) symlinkSync(PYTHON, path.join(bin, "python3"));
  for (const name of executables) fakeExecutable(bin, name);
  return bin;
}

/** A site directory where `sglang` is installed as pip would lay it out (no code runs). */
function sitePackagesWithSglang(): string {
  const site = tempDir();
  mkdirSync(path.join(site, "sglang"));
  writeFileSync(path.join(site, "sglang", "__init__.py"), "raise RuntimeError('imported')\n");
  writeFileSync(path.join(site, "sglang", "launch_server.py"), "");
  return site;
}

describe("detectEngines", () => {
  it("offers the engines whose executable is on the engines' PATH", async () => {
    const bin = binWith(["vllm", "llama-server"], false);
    const found = await detectEngines({ PATH: bin }, execProgram);
    expect(found.engines).toEqual(["vllm", "llamacpp"]);
  });

  // The machine running the tests needs a python3; without one this case cannot be shown.
  it.skipIf(PYTHON === undefined)(
    "offers SGLang when the engines' python3 finds sglang.launch_server, without importing it",
    async () => {
      const env = { PATH: binWith([], true), PYTHONPATH: sitePackagesWithSglang() };
      const found = await detectEngines(env, execProgram);
      expect(found).toEqual({ engines: ["sglang"], notes: [] });
    },
  );

  it.skipIf(PYTHON === undefined)("does not offer SGLang when python3 lacks it", async () => {
    const found = await detectEngines(
      { PATH: binWith(["vllm"], true), PYTHONPATH: tempDir() },
      execProgram,
    );
    expect(found).toEqual({ engines: ["vllm"], notes: [] });
  });

  it("asks python3 with the engines' own environment, and says why when python3 fails", async () => {
    const bin = binWith(["python3"], false);
    const calls: { file: string; args: readonly string[]; env?: Record<string, string> }[] = [];
    const env = { PATH: bin, PYTHONPATH: "/opt/sglang-env" };
    const hangs: ExecFn = async (file, args, options) => {
      calls.push({ file, args, env: options.env });
      throw new Error("timed out after 15000 ms");
    };
    const found = await detectEngines(env, hangs);
    expect(calls).toEqual([{ file: path.join(bin, "python3"), args: ["-c", SGLANG_PROBE], env }]);
    expect(found.engines).toEqual([]);
    expect(found.notes).toEqual([
      expect.stringMatching(/^sglang not offered: .*python3 -c failed: timed out/),
    ]);
  });
});
