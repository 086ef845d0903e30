import { create } from "@bufbuild/protobuf";
import { EngineInstallPhase, StartReplicaSchema } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { createLogger, LogRing } from "../log-ring";
import { chooseAdapter } from "../replicas/launch-plan";
import { startEngineInstalls } from "./engine-installs";
import type { EngineBuilder } from "./installer";

const logger = createLogger({ ring: new LogRing(), write: () => {}, nowMs: () => 0 });

describe("startEngineInstalls", () => {
  it("reports installing then ready, and hands the checked binary over once ready", async () => {
    let finish: (() => void) | undefined;
    const builder: EngineBuilder = {
      build: async (onLine) => {
        onLine("[1/2] compiling");
        await new Promise<void>((resolve) => (finish = resolve));
        return { executable: "/cache/llamacpp/bin/llama-server", versionText: "version: 1 (x)" };
      },
    };
    const ready: Array<[string, string]> = [];
    const installs = startEngineInstalls({
      engines: ["llamacpp"],
      engineDir: "/unused",
      logger,
      nowMs: () => 5,
      onReady: (engine, executable) => ready.push([engine, executable]),
      builderFor: () => builder,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(installs.reports()[0]).toMatchObject({
      engine: "llamacpp",
      phase: EngineInstallPhase.INSTALLING,
      logTail: ["[1/2] compiling"],
    });
    expect(ready).toEqual([]);
    finish?.();
    await installs.settled();
    expect(installs.reports()[0]?.phase).toBe(EngineInstallPhase.READY);
    expect(ready).toEqual([["llamacpp", "/cache/llamacpp/bin/llama-server"]]);
  });

  it("a failed install is reported with its reason and never offered", async () => {
    const ready: string[] = [];
    const installs = startEngineInstalls({
      engines: ["llamacpp"],
      engineDir: "/unused",
      logger,
      nowMs: () => 5,
      onReady: (engine) => ready.push(engine),
      builderFor: () => ({
        build: async () => {
          throw new Error("cmake: command not found");
        },
      }),
    });
    await installs.settled();
    expect(installs.reports()[0]).toMatchObject({
      phase: EngineInstallPhase.FAILED,
      message: "cmake: command not found",
    });
    expect(ready).toEqual([]);
  });
});

describe("chooseAdapter with an installed llama.cpp", () => {
  it("runs the installed binary, not one from PATH", () => {
    const node = {
      isSimulated: false,
      engines: ["llamacpp"],
      executables: { llamacpp: "/cache/bin/llama-server" },
      simLauncher: { command: "llmgw", prefixArgs: [] },
      bindHost: "127.0.0.1",
    };
    const plan = chooseAdapter(create(StartReplicaSchema, { engine: "llamacpp" }), node);
    const command = plan.adapter.buildCommand({
      replicaId: "r1",
      model: "/w/m.gguf",
      servedModelName: "m",
      host: "127.0.0.1",
      port: 9000,
      gpus: [],
    });
    expect(command.command).toBe("/cache/bin/llama-server");
  });
});
