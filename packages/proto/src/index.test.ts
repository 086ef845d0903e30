import { describe, expect, it } from "vitest";
import {
  AGENT_WS_PATH,
  decodeEnvelope,
  DoctorCheckStatus,
  FabricTestRole,
  encodeEnvelope,
  EngineInstallPhase,
  EnvelopeSchema,
  ErrorCode,
  FrameDecodeError,
  ReplicaPhase,
  MAX_FRAME_BYTES,
  type EnvelopeInit,
} from "./index";

const GIB = 1024n * 1024n * 1024n;

const REPLICA_STATUS = {
  replicaId: "r-1",
  model: "qwen",
  phase: ReplicaPhase.FETCHING,
  message: "fetching weights",
  host: "10.0.0.5",
  port: 41000,
  fetchProgress: 0.25,
  exitCode: 137,
  exitSignal: "SIGKILL",
  changedAtMs: 1_767_000_000_500n,
  engine: "vllm",
  gpuIndexes: [2, 3],
  pid: 4242,
  leaderAddress: "10.0.0.5:29500",
};

const START_REPLICA = {
  replicaId: "r-1",
  model: "qwen",
  engine: "vllm",
  source: "https://mirror.lan/qwen.safetensors",
  gpuIndexes: [2, 3],
  tensorParallel: 2,
  contextLength: 32768,
  args: ["--max-num-seqs", "64"],
  env: { VLLM_LOGGING_LEVEL: "INFO" },
  apiKey: "k",
  allowPickle: true,
  embeddings: true,
  startTimeoutMs: 600_000,
  servedModelName: "qwen",
  nodeRank: 1,
  nodeCount: 2,
  leaderAddress: "10.0.0.4:29500",
  adapters: [{ name: "sql", source: "https://mirror.lan/sql-lora.safetensors", rank: 16 }],
  mirrors: [
    {
      name: "primary",
      baseUrl: "http://10.0.0.9:8000/models/",
      signedUrls: {} as Record<string, string>,
      expiresUnixMs: 0n,
    },
    {
      name: "store",
      baseUrl: "",
      signedUrls: {
        "org/m/model.gguf": "https://s3.lan/models/org/m/model.gguf?X-Amz-Signature=ab",
      },
      expiresUnixMs: 1_900_000_000_000n,
    },
  ],
};

const ENGINE_INSTALL = {
  engine: "llamacpp",
  version: "v0.5.0-de3ff81",
  phase: EngineInstallPhase.FAILED,
  message: "cmake --build failed (exit status 1)",
  logTail: ["[12/147] compiling", "error: out of memory"],
  changedAtMs: 1_767_000_000_000n,
};

// One frame of every message type, with every field set to something other than its default.
const FRAMES: Record<string, EnvelopeInit> = {
  register: {
    requestId: "reg-1",
    msg: {
      case: "register",
      value: {
        nodeId: "node-1",
        nodeName: "gpu-01",
        agentVersion: "0.1.0",
        features: ["logs", "reclaim"],
        labels: { rack: "r12", site: "ist" },
        engines: ["vllm", "sim"],
        simulated: true,
        simulationProfile: "h100x8",
        joinToken: "tok",
        replicas: [REPLICA_STATUS],
        engineInstalls: [ENGINE_INSTALL],
        sourceConfigs: [
          {
            source: "file:///models/qwen",
            configJson: '{"model_type":"qwen2"}',
            descriptionJson: '{"source":"gguf"}',
          },
        ],
        hardware: {
          gpus: [
            {
              index: 3,
              uuid: "GPU-abc",
              name: "NVIDIA H100 80GB HBM3",
              memoryBytesTotal: 80n * GIB,
              computeCapability: "9.0",
              pcieGenMax: 5,
              pcieGenCurrent: 4,
              pcieWidthMax: 16,
              pcieWidthCurrent: 8,
              pciBusId: "00000000:18:00.0",
              migEnabled: true,
              powerLimitWatts: 700,
            },
          ],
          cpu: { model: "Xeon", cores: 112 },
          memoryBytesTotal: 2048n * GIB,
          diskBytesTotal: 30_000n * GIB,
          diskBytesFree: 12n * GIB,
          os: "linux",
          arch: "x86_64",
          driverVersion: "590.48.01",
          cudaVersion: "13.1",
        },
      },
    },
  },
  registerAck: {
    requestId: "reg-1",
    msg: {
      case: "registerAck",
      value: {
        nodeId: "node-1",
        heartbeatIntervalMs: 2000,
        serverVersion: "0.1.0",
        agentUrls: ["wss://cp-a:8081", "wss://[fd00::2]:8081"],
      },
    },
  },
  heartbeat: {
    msg: {
      case: "heartbeat",
      value: {
        gpus: [
          {
            uuid: "GPU-abc",
            utilizationPercent: 87.5,
            memoryBytesUsed: 40n * GIB,
            temperatureCelsius: 71.25,
            powerWatts: 612.4,
          },
        ],
        cpuUtilizationPercent: 12.5,
        memoryBytesUsed: 100n * GIB,
        diskBytesFree: 11n * GIB,
        networkReceiveBytesPerSecond: 1_250_000.5,
        networkTransmitBytesPerSecond: 640_000,
        sentAtMs: 1_767_000_000_000n,
        replicas: [REPLICA_STATUS],
        engineInstalls: [ENGINE_INSTALL],
        sourceConfigs: [
          {
            source: "file:///models/qwen",
            configJson: '{"model_type":"qwen2"}',
            descriptionJson: '{"source":"gguf"}',
          },
        ],
      },
    },
  },
  ping: { requestId: "p-1", msg: { case: "ping", value: { sentAtMs: 123n } } },
  pong: { requestId: "p-1", msg: { case: "pong", value: { sentAtMs: 456n } } },
  error: {
    requestId: "x",
    msg: {
      case: "error",
      value: { code: ErrorCode.FRAME_TOO_LARGE, message: "frame of 5 MiB is over 4 MiB" },
    },
  },
  startReplica: { msg: { case: "startReplica", value: START_REPLICA } },
  stopReplica: {
    msg: { case: "stopReplica", value: { replicaId: "r-1", reason: "model removed" } },
  },
  replicaStatus: { msg: { case: "replicaStatus", value: REPLICA_STATUS } },
  desiredReplicas: { msg: { case: "desiredReplicas", value: { replicas: [START_REPLICA] } } },
  logsRequest: {
    requestId: "l-1",
    msg: {
      case: "logsRequest",
      value: { source: "r-1", lines: 200, requestId: "req-1", everySource: true },
    },
  },
  logsReply: {
    requestId: "l-1",
    msg: {
      case: "logsReply",
      value: {
        source: "r-1",
        lines: ["a", "b"],
        sources: ["agent", "r-1"],
        error: "none",
        records: ['{"time_ms":1,"source":"r-1","level":"info","message":"a","request_id":"req-1"}'],
        linesSearched: 2,
      },
    },
  },
  reclaimRequest: {
    requestId: "c-1",
    msg: { case: "reclaimRequest", value: { wantedSources: ["hf:Qwen/Qwen2.5"], collect: true } },
  },
  reclaimReply: {
    requestId: "c-1",
    msg: {
      case: "reclaimReply",
      value: {
        entries: [
          {
            cacheName: "ab12",
            source: "https://x/y",
            sizeBytes: 5n * GIB,
            removed: true,
            refused: "symlink",
          },
        ],
        bytesFreed: 5n * GIB,
      },
    },
  },
  upgradeAgent: {
    requestId: "u-1",
    msg: {
      case: "upgradeAgent",
      value: {
        version: "1.4.0",
        file: "llmgw-1.4.0-linux-x64.tar.gz",
        sha256: "ab".repeat(32),
        urlPath: "/agent/v1/releases/llmgw-1.4.0-linux-x64.tar.gz",
      },
    },
  },
  upgradeReply: {
    requestId: "u-1",
    msg: {
      case: "upgradeReply",
      value: { ok: false, error: "hash mismatch", alreadyCurrent: false },
    },
  },
  engineBuild: { requestId: "", msg: { case: "engineBuild", value: { build: "cu129" } } },
  doctorRequest: {
    requestId: "d-1",
    msg: { case: "doctorRequest", value: { serverTimeMs: 1_764_000_000_000n } },
  },
  doctorReply: {
    requestId: "d-1",
    msg: {
      case: "doctorReply",
      value: {
        checks: [
          {
            id: "disk.cache",
            status: DoctorCheckStatus.WARN,
            summary: "model cache: 50.0 GiB free",
            fix: "free room",
          },
        ],
      },
    },
  },
  fabricTestRequest: {
    requestId: "f-1",
    msg: {
      case: "fabricTestRequest",
      value: {
        role: FabricTestRole.CLIENT,
        adapter: "mlx5_0",
        port: 18515,
        peerAddress: "10.0.0.2",
        durationSeconds: 5,
        sizeBytes: 65536,
      },
    },
  },
  fabricTestReply: {
    requestId: "f-1",
    msg: {
      case: "fabricTestReply",
      value: {
        error: "",
        adapters: [
          {
            name: "mlx5_0",
            state: "4: ACTIVE",
            rateGbps: 400,
            rateText: "400 Gb/sec (4X NDR)",
            linkLayer: "Ethernet",
            gidIndex: 3,
          },
        ],
        address: "10.0.0.2",
        averageGbps: 380.5,
        peakGbps: 390.25,
        messageRateMpps: 0.72,
        output: "#bytes #iterations ...",
      },
    },
  },
};

/** Strips protobuf-es's $typeName so decoded messages compare with the plain init objects. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== "$typeName")
        .map(([key, v]) => [key, plain(v)]),
    );
  }
  return value;
}

describe("encodeEnvelope / decodeEnvelope", () => {
  for (const [name, init] of Object.entries(FRAMES)) {
    it(`round-trips ${name} with every field`, () => {
      const decoded = decodeEnvelope(encodeEnvelope(init));
      expect(decoded.msg.case).toBe(name);
      expect(decoded.requestId).toBe(init.requestId ?? "");
      expect(plain(decoded.msg.value)).toEqual(plain(init.msg?.value));
    });
  }

  it("covers every case of the oneof", () => {
    // Read from the schema, so a message added to the .proto without a frame here fails.
    const oneofCases = EnvelopeSchema.oneofs[0]?.fields.map((field) => field.localName).sort();
    expect(Object.keys(FRAMES).sort()).toEqual(oneofCases);
  });

  it("keeps an optional field set to zero apart from one left absent", () => {
    const decoded = decodeEnvelope(
      encodeEnvelope({
        msg: {
          case: "heartbeat",
          value: {
            gpus: [
              {
                uuid: "GPU-zero",
                utilizationPercent: 0,
                memoryBytesUsed: 0n,
                temperatureCelsius: 0,
                powerWatts: 0,
              },
              { uuid: "GPU-absent" },
            ],
          },
        },
      }),
    );
    if (decoded.msg.case !== "heartbeat") throw new Error(`got ${decoded.msg.case}`);
    const [zero, absent] = decoded.msg.value.gpus;
    expect(zero).toMatchObject({
      utilizationPercent: 0,
      memoryBytesUsed: 0n,
      temperatureCelsius: 0,
      powerWatts: 0,
    });
    expect(absent?.utilizationPercent).toBeUndefined();
    expect(absent?.memoryBytesUsed).toBeUndefined();
    expect(absent?.temperatureCelsius).toBeUndefined();
    expect(absent?.powerWatts).toBeUndefined();
    expect(decoded.msg.value.cpuUtilizationPercent).toBeUndefined();
  });

  it("keeps absent PCIe fields absent on a Gpu and zero ones zero", () => {
    const decoded = decodeEnvelope(
      encodeEnvelope({
        msg: {
          case: "register",
          value: { hardware: { gpus: [{ uuid: "a", pcieGenMax: 0 }, { uuid: "b" }] } },
        },
      }),
    );
    if (decoded.msg.case !== "register") throw new Error(`got ${decoded.msg.case}`);
    const [zero, absent] = decoded.msg.value.hardware?.gpus ?? [];
    expect(zero?.pcieGenMax).toBe(0);
    expect(absent?.pcieGenMax).toBeUndefined();
    expect(absent?.powerLimitWatts).toBeUndefined();
  });

  it("rejects an empty frame", () => {
    expect(() => decodeEnvelope(new Uint8Array())).toThrow(FrameDecodeError);
  });

  it("rejects an envelope with only a request id", () => {
    expect(() => decodeEnvelope(encodeEnvelope({ requestId: "r" }))).toThrow(/carries no message/);
  });

  it("rejects every truncation of a frame", () => {
    const register = FRAMES.register;
    if (!register) throw new Error("FRAMES has no register frame");
    const bytes = encodeEnvelope(register);
    for (let length = 0; length < bytes.length; length++) {
      let error: unknown;
      try {
        decodeEnvelope(bytes.subarray(0, length));
      } catch (caught) {
        error = caught;
      }
      // A prefix ending on a field boundary (after the request id) parses, but carries no message.
      if (error === undefined)
        throw new Error(`truncated frame of ${length}/${bytes.length} bytes decoded`);
      expect(error).toBeInstanceOf(FrameDecodeError);
    }
  });

  it("rejects random bytes with FrameDecodeError and never anything else", () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed;
    };
    let rejected = 0;
    for (let i = 0; i < 500; i++) {
      const bytes = Uint8Array.from({ length: 1 + (random() % 64) }, () => random() & 0xff);
      try {
        decodeEnvelope(bytes);
      } catch (error) {
        expect(error).toBeInstanceOf(FrameDecodeError);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(400);
  });

  it("exports the path and a frame cap far below ws's 100 MiB default", () => {
    expect(AGENT_WS_PATH).toBe("/agent/v1");
    expect(MAX_FRAME_BYTES).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});

describe("decodeEnvelope's allocations (the protobuf-es patch, pnpm-workspace.yaml)", () => {
  it("builds one Map per decoded heartbeat (its list of cards), not three per message in it", () => {
    const cards = Array.from({ length: 8 }, (_, at) => ({ uuid: `GPU-${at}`, powerWatts: 600 }));
    const frame = encodeEnvelope({ msg: { case: "heartbeat", value: { gpus: cards } } });
    decodeEnvelope(frame);
    const RealMap = globalThis.Map;
    let built = 0;
    globalThis.Map = class CountedMap<K, V> extends RealMap<K, V> {
      constructor(entries?: Iterable<readonly [K, V]> | null) {
        super(entries);
        built += 1;
      }
    };
    try {
      for (let at = 0; at < 100; at += 1) decodeEnvelope(frame);
    } finally {
      globalThis.Map = RealMap;
    }
    // Unpatched: a field map and two wrapper caches for the Envelope, the Heartbeat and each card
    // (3 × 10 a frame); patched, only the wrapper cache of the one list that is read.
    expect(built).toBe(100);
  });
});
