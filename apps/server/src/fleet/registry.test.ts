import type { MessageInitShape } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { must } from "@llmgw/domain";
import {
  create,
  EngineInstallPhase,
  HeartbeatSchema,
  RegisterSchema,
  type Heartbeat,
} from "@llmgw/proto";
import { FleetRegistry } from "./registry";

/** Every object reachable from `root` through properties, array items and map entries. */
function reachable(root: object): Set<object> {
  const seen = new Set<object>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (ArrayBuffer.isView(value)) continue;
    if (value instanceof Map) for (const entry of value) pending.push(...(entry as unknown[]));
    else if (value instanceof Set) pending.push(...(value as Set<unknown>));
    else pending.push(...Object.values(value));
  }
  return seen;
}

const install = (phase: EngineInstallPhase) => ({
  engine: "llamacpp",
  version: "v0.5.0",
  phase,
  message: "",
  logTail: ["[204/204] Linking CXX executable bin/llama-server"],
  changedAtMs: 1_700_000_000_000n,
});

function beat(fields: MessageInitShape<typeof HeartbeatSchema>): Heartbeat {
  return create(HeartbeatSchema, fields);
}

function connected() {
  const registry = new FleetRegistry();
  const register = create(RegisterSchema, { nodeId: "gpu-1", nodeName: "gpu-1" });
  registry.connect(register, 1, 1_000);
  return { registry, live: must(registry.get("gpu-1"), "the live node") };
}

describe("the registry's record of a node's last heartbeat", () => {
  it("is one record per node and card, overwritten by each heartbeat", () => {
    const { registry, live } = connected();
    const first = beat({
      cpuUtilizationPercent: 12.5,
      memoryBytesUsed: 64_000_000_000n,
      diskBytesFree: 900_000_000_000n,
      networkReceiveBytesPerSecond: 1_000,
      gpus: [
        { uuid: "GPU-1", utilizationPercent: 40, memoryBytesUsed: 1_000n, powerWatts: 300.5 },
        { uuid: "GPU-2", utilizationPercent: 7, temperatureCelsius: 51 },
      ],
    });
    registry.heartbeat("gpu-1", 1, first, 2_000);
    const record = live.heartbeat;
    const card = live.samplesByUuid.get("GPU-1");

    registry.heartbeat(
      "gpu-1",
      1,
      beat({
        cpuUtilizationPercent: 80,
        diskBytesFree: 800_000_000_000n,
        gpus: [{ uuid: "GPU-1" }],
      }),
      4_000,
    );
    expect(live.heartbeat).toBe(record);
    expect(live.samplesByUuid.get("GPU-1")).toBe(card);
    expect(live.heartbeats).toBe(2);
    expect(live.heartbeat?.cpuUtilizationPercent).toBe(80);
    expect(live.heartbeat?.diskBytesFree).toBe(800_000_000_000n);
    // Figures the last message left out are unknown, as they were on the message.
    expect(live.heartbeat?.memoryBytesUsed).toBeUndefined();
    expect(live.heartbeat?.networkReceiveBytesPerSecond).toBeUndefined();
    expect(live.samplesByUuid.get("GPU-1")?.utilizationPercent).toBeUndefined();
    expect(live.samplesByUuid.get("GPU-1")?.powerWatts).toBeUndefined();
    // A card the last heartbeat left out keeps its last sample.
    expect(live.samplesByUuid.get("GPU-2")?.temperatureCelsius).toBe(51);
    expect(live.samplesByUuid.get("GPU-2")?.utilizationPercent).toBe(7);
  });

  it("reads a card's figures as its last sample gave them", () => {
    const { registry, live } = connected();
    registry.heartbeat(
      "gpu-1",
      1,
      beat({ gpus: [{ uuid: "GPU-1", memoryBytesUsed: 81_000_000_000n, powerWatts: 612.25 }] }),
      2_000,
    );
    const card = live.samplesByUuid.get("GPU-1");
    expect(card?.memoryBytesUsed).toBe(81_000_000_000n);
    expect(card?.powerWatts).toBe(612.25);
    expect(card?.temperatureCelsius).toBeUndefined();
  });

  it("keeps none of the decoded message's objects, so each message can die young", () => {
    const { registry, live } = connected();
    registry.heartbeat(
      "gpu-1",
      1,
      beat({ engineInstalls: [install(EngineInstallPhase.READY)] }),
      2_000,
    );
    const message = beat({
      cpuUtilizationPercent: 50,
      engineInstalls: [install(EngineInstallPhase.READY)],
      gpus: [{ uuid: "GPU-1", utilizationPercent: 90, memoryBytesUsed: 5n }],
    });
    registry.heartbeat("gpu-1", 1, message, 4_000);
    const held = reachable(registry);
    const parts: object[] = [message, message.gpus, ...message.gpus, message.engineInstalls];
    for (const part of parts) expect(held.has(part)).toBe(false);
    expect(live.heartbeat?.engineInstalls[0]?.phase).toBe(EngineInstallPhase.READY);
  });

  it("takes a changed engine install list from the heartbeat that changed it", () => {
    const { registry, live } = connected();
    const installing = [install(EngineInstallPhase.INSTALLING)];
    registry.heartbeat("gpu-1", 1, beat({ engineInstalls: installing }), 2_000);
    const ready = beat({ engineInstalls: [install(EngineInstallPhase.READY)] });
    registry.heartbeat("gpu-1", 1, ready, 4_000);
    expect(live.heartbeat?.engineInstalls).toBe(ready.engineInstalls);
    registry.heartbeat("gpu-1", 1, beat({}), 6_000);
    expect(live.heartbeat?.engineInstalls).toEqual([]);
  });
});

describe("the registry's copy of a node's Register", () => {
  it("keeps every value the node registered with", () => {
    const fields = {
      nodeId: "gpu-1",
      nodeName: "gpu-1",
      agentVersion: "1.2.3",
      simulationProfile: "h100x8",
      features: ["replicas"],
      engines: ["vllm", "sim"],
      labels: { rack: "r1", zone: "z" },
      hardware: {
        os: "linux",
        arch: "x86_64",
        driverVersion: "590.48.01",
        cudaVersion: "13.1",
        cpu: { model: "Intel(R) Xeon(R) Platinum 8480+", cores: 112 },
        gpus: [0, 1].map((index) => ({
          index,
          uuid: `GPU-${index}`,
          name: "NVIDIA H100 80GB HBM3",
          computeCapability: "9.0",
          pciBusId: `00000000:${index}8:00.0`,
        })),
      },
    };
    const registry = new FleetRegistry();
    registry.connect(create(RegisterSchema, fields), 1, 1_000);
    const kept = must(registry.get("gpu-1"), "the live node").register;
    expect(kept).toEqual(create(RegisterSchema, fields));
  });
});
