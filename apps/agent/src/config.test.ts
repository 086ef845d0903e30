import { describe, expect, it } from "vitest";
import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigError, engineBaseEnv, parseConfig, type ConfigSources } from "./config";

function sources(
  env: Record<string, string> = {},
  files: Record<string, string> = {},
): ConfigSources {
  return {
    env,
    hostname: () => "host-1",
    readTextFile: (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
      return text;
    },
  };
}

describe("parseConfig", () => {
  it("uses defaults when nothing is given", () => {
    expect(parseConfig([], sources())).toEqual({
      serverUrls: ["wss://127.0.0.1:8081"],
      joinToken: "",
      caSha256: "",
      nodeName: "host-1",
      labels: {},
      dataDir: "./.llmgw/agent",
      engineHost: "127.0.0.1",
      stopEnginesOnExit: false,
      installEngines: ["llamacpp"],
      engineDir: join(homedir(), ".cache", "llmgw", "engines"),
    });
  });

  it("takes repeated and comma-separated --server, labels, simulation and seed", () => {
    const config = parseConfig(
      [
        "--server",
        "wss://a:8081,wss://b:8443/",
        "--server=wss://c:8081/agent/v1",
        "--label",
        "rack=r1",
        "--label",
        "gpu=h100=x",
        "--simulate",
        "h100x8",
        "--seed",
        "42",
        "--name",
        "n1",
        "--data-dir",
        "/tmp/x",
      ],
      sources(),
    );
    expect(config).toEqual({
      serverUrls: ["wss://a:8081", "wss://b:8443", "wss://c:8081"],
      joinToken: "",
      caSha256: "",
      nodeName: "n1",
      labels: { rack: "r1", gpu: "h100=x" },
      simulationProfile: "h100x8",
      seed: 42,
      dataDir: "/tmp/x",
      engineHost: "127.0.0.1",
      stopEnginesOnExit: true,
      installEngines: [],
      engineDir: join(homedir(), ".cache", "llmgw", "engines"),
    });
  });

  it("reads servers, token and data dir from the environment; flags win", () => {
    const env = {
      LLMGW_SERVERS: "wss://e1:8081, wss://e2:8081",
      LLMGW_JOIN_TOKEN: "env-token",
      LLMGW_AGENT_DATA_DIR: "/var/lib/a",
    };
    expect(parseConfig([], sources(env))).toMatchObject({
      serverUrls: ["wss://e1:8081", "wss://e2:8081"],
      joinToken: "env-token",
      dataDir: "/var/lib/a",
    });
    expect(
      parseConfig(["--server", "wss://f:1", "--token", "flag-token"], sources(env)),
    ).toMatchObject({ serverUrls: ["wss://f:1"], joinToken: "flag-token" });
  });

  it("connects to the addresses remembered at join when none is given, and takes the CA pin", () => {
    const files = { "/d/servers": "wss://cp-1:8081\nwss://cp-2:8081\n" };
    expect(
      parseConfig(["--data-dir", "/d"], sources({ LLMGW_CA_SHA256: "ab" }, files)),
    ).toMatchObject({ serverUrls: ["wss://cp-1:8081", "wss://cp-2:8081"], caSha256: "ab" });
  });

  it("installs llama.cpp on a real node by default, nothing when simulated, and refuses unknown engines", () => {
    expect(parseConfig([], sources()).installEngines).toEqual(["llamacpp"]);
    expect(parseConfig(["--simulate", "h100x8"], sources()).installEngines).toEqual([]);
    expect(parseConfig([], sources({ LLMGW_INSTALL_ENGINES: "none" })).installEngines).toEqual([]);
    expect(
      parseConfig(["--engine-dir", "/var/cache/engines"], sources({ LLMGW_ENGINE_DIR: "/x" }))
        .engineDir,
    ).toBe("/var/cache/engines");
    expect(parseConfig([], sources({ XDG_CACHE_HOME: "/c" })).engineDir).toBe("/c/llmgw/engines");
    expect(() => parseConfig(["--install-engines", "vllm"], sources())).toThrow(
      /^--install-engines \(or LLMGW_INSTALL_ENGINES\): unknown engine; allowed: llamacpp or none/,
    );
  });

  it("names ComfyUI's checkout and command from flags or the environment", () => {
    expect(parseConfig([], sources()).comfyuiDir).toBeUndefined();
    const config = parseConfig(
      ["--comfyui-dir", "/opt/ComfyUI"],
      sources({
        LLMGW_COMFYUI_DIR: "/other",
        LLMGW_COMFYUI_COMMAND: "/opt/venv/bin/python main.py",
      }),
    );
    expect(config).toMatchObject({
      comfyuiDir: "/opt/ComfyUI",
      comfyuiCommand: "/opt/venv/bin/python main.py",
    });
    expect(() => parseConfig([], sources({ LLMGW_COMFYUI_COMMAND: "  " }))).toThrow(
      /^--comfyui-command \(or LLMGW_COMFYUI_COMMAND\): the ComfyUI command is empty/,
    );
  });

  it("takes the engine address, the advertised address and the hub; keeps LLMGW_* out of engines", () => {
    const config = parseConfig(
      ["--engine-host", "0.0.0.0", "--advertise-host", "gpu-3.lan", "--stop-engines-on-exit"],
      sources({ LLMGW_HUB_URL: "https://hf.mirror.lan" }),
    );
    expect(config).toMatchObject({
      engineHost: "0.0.0.0",
      advertiseHost: "gpu-3.lan",
      hubUrl: "https://hf.mirror.lan",
      stopEnginesOnExit: true,
    });
    expect(() => parseConfig(["--hub-url", "ftp://x"], sources())).toThrow(
      /^--hub-url \(or LLMGW_HUB_URL\): must be an http/,
    );
    expect(
      parseConfig(["--simulate", "h100x8", "--keep-engines-on-exit"], sources()).stopEnginesOnExit,
    ).toBe(false);
    expect(() =>
      parseConfig(["--stop-engines-on-exit", "--keep-engines-on-exit"], sources()),
    ).toThrow(/both given/);
    expect(
      engineBaseEnv({ PATH: "/bin", LLMGW_JOIN_TOKEN: "secret", HOME: "/root", UNSET: undefined }),
    ).toEqual({ PATH: "/bin", HOME: "/root" });
  });

  it("reads the token from --token-file, trimmed", () => {
    expect(
      parseConfig(
        ["--token-file", "/t"],
        sources({ LLMGW_JOIN_TOKEN: "env" }, { "/t": "file-token\n" }),
      ).joinToken,
    ).toBe("file-token");
  });

  const errors: [string, string[], RegExp][] = [
    [
      "an unknown flag",
      ["--servers", "wss://a:1"],
      /Unknown option '--servers'.*allowed flags: --server, --token/,
    ],
    ["a flag without its value", ["--server"], /--server.*allowed flags/],
    [
      "a non-websocket address",
      ["--server", "http://a:8081"],
      /^--server \(or LLMGW_SERVERS\): "http:\/\/a:8081" is not a wss:\/\//,
    ],
    [
      "an address with another path",
      ["--server", "wss://a:8081/other"],
      /--server.*not a wss:\/\//,
    ],
    [
      "a plain ws:// address",
      ["--server", "ws://a:8081"],
      /"ws:\/\/a:8081": the agent port speaks TLS only.*llmgw agent join wss:\/\/HOST:PORT/,
    ],
    [
      "an unknown profile",
      ["--simulate", "a100"],
      /^--simulate: unknown profile; allowed: h100x8, h200x8, l40sx4, mixed, cpu$/,
    ],
    ["a seed that is not a number", ["--seed", "abc"], /^--seed: must be a whole number/],
    ["a negative seed", ["--seed=-1"], /^--seed: must be 0 or more/],
    ["a fractional seed", ["--seed", "1.5"], /^--seed: must be a whole number/],
    ["a label without =", ["--label", "rack"], /^--label "rack": expected key=value/],
    ["a label with a bad key", ["--label", "=x"], /^--label "=x"/],
    [
      "both token flags",
      ["--token", "a", "--token-file", "/t"],
      /--token and --token-file both given/,
    ],
    [
      "an unreadable token file",
      ["--token-file", "/missing"],
      /^--token-file \/missing: cannot read it \(ENOENT\)/,
    ],
    ["an empty name", ["--name", ""], /^--name: the node name is empty/],
    ["a positional argument", ["extra"], /Unexpected argument 'extra'|positional/i],
  ];
  for (const [what, argv, message] of errors) {
    it(`names the problem for ${what}`, () => {
      expect(() => parseConfig(argv, sources())).toThrow(ConfigError);
      expect(() => parseConfig(argv, sources())).toThrow(message);
    });
  }
});
