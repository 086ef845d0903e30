import { describe, expect, it } from "vitest";
import {
  EngineInstaller,
  INSTALL_LOG_TAIL_LINES,
  type EngineBuilder,
  type EngineInstallStatus,
} from "./installer";

/** A builder the test finishes by hand, printing the lines it is given first. */
function fakeBuilder(lines: string[]): EngineBuilder & {
  finish: (outcome: { executable: string } | Error) => void;
} {
  let settle: ((outcome: { executable: string } | Error) => void) | undefined;
  return {
    build: (onLine) =>
      new Promise((resolve, reject) => {
        for (const line of lines) onLine(line);
        settle = (outcome) =>
          outcome instanceof Error
            ? reject(outcome)
            : resolve({ ...outcome, versionText: "version: 1 (abc)" });
      }),
    finish: (outcome) => {
      if (!settle) throw new Error("build() was not called");
      settle(outcome);
    },
  };
}

function installerWith(builder: EngineBuilder) {
  const changes: EngineInstallStatus[] = [];
  let nowMs = 1_000;
  const installer = new EngineInstaller({
    engine: "llamacpp",
    version: "v1",
    builder,
    nowMs: () => (nowMs += 1),
    onChange: (status) => changes.push(status),
  });
  return { installer, changes };
}

describe("EngineInstaller", () => {
  it("is installing while the build runs, then ready with the checked binary", async () => {
    const builder = fakeBuilder(["configuring", "building"]);
    const { installer, changes } = installerWith(builder);
    const done = installer.start();
    expect(installer.current().phase).toBe("installing");
    expect(installer.current().executable).toBeUndefined();
    builder.finish({ executable: "/cache/llama-server" });
    await done;
    expect(changes.map((c) => c.phase)).toEqual(["installing", "ready"]);
    expect(installer.current()).toMatchObject({
      phase: "ready",
      executable: "/cache/llama-server",
      message: "version: 1 (abc)",
      logTail: ["configuring", "building"],
    });
  });

  it("fails with the build's last lines and the error, and offers no binary", async () => {
    const builder = fakeBuilder(["[12/204] compiling", "error: out of memory"]);
    const { installer } = installerWith(builder);
    const done = installer.start();
    builder.finish(new Error("cmake --build failed (exit status 1)"));
    await done;
    const status = installer.current();
    expect(status.phase).toBe("failed");
    expect(status.executable).toBeUndefined();
    expect(status.message).toBe("cmake --build failed (exit status 1)");
    expect(status.logTail.slice(-2)).toEqual([
      "error: out of memory",
      "cmake --build failed (exit status 1)",
    ]);
  });

  it("keeps only the last lines of a long build", async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    const builder = fakeBuilder(lines);
    const { installer } = installerWith(builder);
    const done = installer.start();
    builder.finish({ executable: "/x" });
    await done;
    const tail = installer.current().logTail;
    expect(tail).toHaveLength(INSTALL_LOG_TAIL_LINES);
    expect(tail.at(-1)).toBe("line 99");
  });

  it("builds once however often it is started", async () => {
    let builds = 0;
    const { installer } = installerWith({
      build: async () => {
        builds += 1;
        return { executable: "/x", versionText: "version: 1" };
      },
    });
    await Promise.all([installer.start(), installer.start()]);
    await installer.start();
    expect(builds).toBe(1);
  });

  it("reports a builder that throws synchronously as failed, never as a crash", async () => {
    const { installer } = installerWith({
      build: () => {
        throw new Error("git: not found");
      },
    });
    await installer.start();
    expect(installer.current()).toMatchObject({ phase: "failed", message: "git: not found" });
  });
});
