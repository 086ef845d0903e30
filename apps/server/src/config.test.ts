import { inspect } from "node:util";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseServerConfig } from "./config";

describe("parseServerConfig", () => {
  it("defaults to PGlite under the home directory and the documented ports", () => {
    const config = parseServerConfig([], { LLMGW_HOME: "/srv/llmgw" });
    expect(config.store).toEqual({ kind: "pglite", dataDir: "/srv/llmgw/data" });
    expect([config.httpPort, config.agentPort]).toEqual([8080, 8081]);
    expect(config.heartbeatIntervalMs).toBe(2000);
    expect(config.missedHeartbeatsMax).toBe(3);
  });

  it("traces /v1 only when an OTLP endpoint is set, ours first, then OpenTelemetry's own", () => {
    const tracing = (env: Record<string, string>) => parseServerConfig([], env).gateway.tracing;
    expect(tracing({}).endpoint).toBeNull();
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel:4318/" }).endpoint).toBe(
      "http://otel:4318/v1/traces",
    );
    expect(
      tracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://otel:4318/custom",
      }).endpoint,
    ).toBe("http://otel:4318/custom");
    expect(
      tracing({
        LLMGW_OTLP_ENDPOINT: "https://collector.example/v1/traces",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel:4318",
        LLMGW_TRACE_SAMPLE_RATIO: "0.1",
      }),
    ).toEqual({
      endpoint: "https://collector.example/v1/traces",
      sampleRatio: 0.1,
      exportDelayMs: 5_000,
    });
    expect(() => tracing({ LLMGW_OTLP_ENDPOINT: "http://user:pw@otel:4318/v1/traces" })).toThrow(
      /LLMGW_OTLP_ENDPOINT must be an http\(s\) address with no user:password/,
    );
    expect(() => tracing({ LLMGW_OTLP_ENDPOINT: "grpc://otel:4317" })).toThrow(ConfigError);
    expect(() => tracing({ LLMGW_TRACE_SAMPLE_RATIO: "2" })).toThrow(/at most 1/);
  });

  it("uses PostgreSQL when DATABASE_URL is set and flags beat the environment", () => {
    const config = parseServerConfig(["--port", "9090"], {
      DATABASE_URL: "postgres://u@db/llmgw",
      LLMGW_PORT: "7070",
    });
    expect(config.store).toEqual({ kind: "postgres", url: "postgres://u@db/llmgw" });
    expect(config.httpPort).toBe(9090);
  });

  it("reads the home's server.env, with the environment and then flags winning over it", () => {
    const home = mkdtempSync(join(tmpdir(), "server-home-"));
    writeFileSync(
      join(home, "server.env"),
      "LLMGW_PORT=7001\nLLMGW_AGENT_PORT=7002\nLLMGW_BIND=0.0.0.0\n",
    );
    const fromFile = parseServerConfig(["--home", home], {});
    expect([fromFile.httpPort, fromFile.agentPort, fromFile.httpHost]).toEqual([
      7001,
      7002,
      "0.0.0.0",
    ]);
    const overridden = parseServerConfig(["--home", home, "--agent-port", "7004"], {
      LLMGW_PORT: "7003",
    });
    expect([overridden.httpPort, overridden.agentPort]).toEqual([7003, 7004]);
    expect(parseServerConfig([], { LLMGW_HOME: home }).httpPort).toBe(7001);
  });

  it("refuses a settings file that sets something other than a setting", () => {
    const home = mkdtempSync(join(tmpdir(), "server-home-"));
    writeFileSync(join(home, "server.env"), "LD_PRELOAD=/tmp/x.so\n");
    expect(() => parseServerConfig(["--home", home], {})).toThrow(ConfigError);
    expect(() => parseServerConfig(["--home", home], {})).toThrow(/LD_PRELOAD is not a setting/);
  });

  it("splits the agent TLS names into host names and addresses, and takes the node certificate lifetime", () => {
    const config = parseServerConfig([], {
      LLMGW_AGENT_TLS_NAMES: "gw.example, 10.0.0.5,fd00::1",
      LLMGW_NODE_CERT_DAYS: "7",
    });
    expect(config.agentTls).toEqual({ names: ["gw.example"], addresses: ["10.0.0.5", "fd00::1"] });
    expect(config.nodeCertValidSeconds).toBe(7 * 86_400);
    expect(parseServerConfig([], { LLMGW_NODE_CERT_TTL_SECONDS: "30" }).nodeCertValidSeconds).toBe(
      30,
    );
    expect(config.nodeCertWarnBeforeMs).toBe(7 * 86_400_000);
    expect(parseServerConfig([], { LLMGW_NODE_CERT_WARN_DAYS: "31" }).nodeCertWarnBeforeMs).toBe(
      31 * 86_400_000,
    );
    expect(() => parseServerConfig([], { LLMGW_NODE_CERT_WARN_DAYS: "-1" })).toThrow(
      /LLMGW_NODE_CERT_WARN_DAYS/,
    );
  });

  it("reads facility.budgets and names a bad entry", () => {
    const home = { LLMGW_HOME: "/srv/llmgw" };
    expect(parseServerConfig([], home).facilityBudgets).toEqual([]);
    const config = parseServerConfig([], { ...home, LLMGW_FACILITY_BUDGETS: "rack=r12:5000" });
    expect(config.facilityBudgets).toEqual([{ domain: "rack=r12", watts: 5000 }]);
    expect(() =>
      parseServerConfig([], { ...home, LLMGW_FACILITY_BUDGETS: "rack=r12:lots" }),
    ).toThrow(/LLMGW_FACILITY_BUDGETS: budget "rack=r12:lots" has no watts/);
  });

  it("reads the mirrors, the primary first, and names a bad entry", () => {
    const home = { LLMGW_HOME: "/srv/llmgw" };
    expect(parseServerConfig([], home).mirrors).toEqual({
      list: [],
      checkIntervalMs: 15_000,
      s3: new Map(),
      signedUrlSeconds: 900,
    });
    const config = parseServerConfig([], {
      ...home,
      LLMGW_MIRRORS: "main=http://10.0.0.9:8000/models,backup=https://m2.lan/",
    });
    expect(config.mirrors.list.map((mirror) => mirror.baseUrl)).toEqual([
      "http://10.0.0.9:8000/models/",
      "https://m2.lan/",
    ]);
    expect(() => parseServerConfig([], { ...home, LLMGW_MIRRORS: "main=ftp://x/" })).toThrow(
      /LLMGW_MIRRORS: mirror "main": "ftp:\/\/x\/" is not an http\(s\):\/\/ or s3:\/\/ URL/,
    );
  });

  it("reads an S3 mirror's endpoint, region and keys, and never prints the secret", () => {
    const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    const config = parseServerConfig([], {
      LLMGW_HOME: "/srv/llmgw",
      LLMGW_MIRRORS: "main=http://10.0.0.9/models/,big-store=s3://models/llm",
      LLMGW_MIRROR_BIG_STORE_ENDPOINT: "http://10.0.0.5:9000",
      LLMGW_MIRROR_BIG_STORE_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
      LLMGW_MIRROR_BIG_STORE_SECRET_ACCESS_KEY: secret,
    });
    expect(config.mirrors.list[1]).toEqual({
      name: "big-store",
      baseUrl: "s3://models/llm/",
      s3: { bucket: "models", prefix: "llm/" },
    });
    const access = config.mirrors.s3.get("big-store");
    expect(access).toMatchObject({
      endpoint: "http://10.0.0.5:9000",
      region: "us-east-1",
      accessKeyId: "AKIAIOSFODNN7EXAMPLE",
    });
    expect(access?.secretAccessKey.reveal()).toBe(secret);
    expect(JSON.stringify(config)).not.toContain(secret);
    expect(inspect(config, { depth: 10 })).not.toContain(secret);
    expect(String(access?.secretAccessKey)).toBe("[redacted]");
  });

  it("refuses to start naming an S3 mirror's missing or bad settings", () => {
    const base = { LLMGW_HOME: "/srv/llmgw", LLMGW_MIRRORS: "store=s3://models/llm/" };
    expect(() => parseServerConfig([], base)).toThrow(
      /mirror "store": LLMGW_MIRROR_STORE_ENDPOINT is not set .*LLMGW_MIRROR_STORE_ACCESS_KEY_ID is not set.*LLMGW_MIRROR_STORE_SECRET_ACCESS_KEY is not set/,
    );
    const keys = {
      LLMGW_MIRROR_STORE_ACCESS_KEY_ID: "AKIA1",
      LLMGW_MIRROR_STORE_SECRET_ACCESS_KEY: "s",
    };
    expect(() =>
      parseServerConfig([], { ...base, ...keys, LLMGW_MIRROR_STORE_ENDPOINT: "http://h:9/bucket" }),
    ).toThrow(
      /LLMGW_MIRROR_STORE_ENDPOINT "http:\/\/h:9\/bucket" must be an http\(s\):\/\/ origin/,
    );
    expect(() => parseServerConfig([], { ...base, LLMGW_MIRRORS: "store=s3://A_B/" })).toThrow(
      /mirror "store": "s3:\/\/A_B\/" does not name an S3 bucket/,
    );
    expect(() =>
      parseServerConfig([], { ...base, LLMGW_MIRRORS: "store=s3://models/../x/" }),
    ).toThrow(/the prefix after the bucket may hold only/);
    expect(() => parseServerConfig([], { LLMGW_MIRROR_SIGNED_URL_SECONDS: "604801" })).toThrow(
      /at most 604800 \(7 days, the most S3 allows\)/,
    );
  });

  it("names the variable that is wrong", () => {
    expect(() => parseServerConfig([], { LLMGW_PORT: "eighty" })).toThrow(/LLMGW_PORT/);
    expect(() => parseServerConfig([], { LLMGW_AGENT_PORT: "70000" })).toThrow(
      /LLMGW_AGENT_PORT: LLMGW_AGENT_PORT must be 0-65535/,
    );
    expect(() => parseServerConfig([], { DATABASE_URL: "mysql://x" })).toThrow(ConfigError);
    expect(() => parseServerConfig([], { LLMGW_AGENT_TLS_NAMES: "gw/evil" })).toThrow(
      /LLMGW_AGENT_TLS_NAMES must be a comma list/,
    );
    expect(() => parseServerConfig([], { LLMGW_NODE_CERT_DAYS: "0" })).toThrow(
      /LLMGW_NODE_CERT_DAYS must be at least 1/,
    );
    expect(() => parseServerConfig(["--bogus"], {})).toThrow(/bogus/);
    expect(() => parseServerConfig([], { LLMGW_METRICS_TOKEN: "short" })).toThrow(
      /LLMGW_METRICS_TOKEN must be at least 16 characters/,
    );
  });

  it("caps unregistered agent sockets per address at 32 unless raised, never at 0", () => {
    expect(parseServerConfig([], {}).agentUnregisteredPerAddressMax).toBe(32);
    const raised = parseServerConfig([], { LLMGW_AGENT_UNREGISTERED_PER_ADDRESS: "500" });
    expect(raised.agentUnregisteredPerAddressMax).toBe(500);
    expect(() => parseServerConfig([], { LLMGW_AGENT_UNREGISTERED_PER_ADDRESS: "0" })).toThrow(
      /LLMGW_AGENT_UNREGISTERED_PER_ADDRESS must be at least 1/,
    );
  });

  it("holds the leader lease for ten seconds unless set, never under one second", () => {
    expect(parseServerConfig([], {}).leaderLeaseMs).toBe(10_000);
    expect(parseServerConfig([], { LLMGW_LEADER_LEASE_MS: "3000" }).leaderLeaseMs).toBe(3_000);
    expect(() => parseServerConfig([], { LLMGW_LEADER_LEASE_MS: "999" })).toThrow(
      /LLMGW_LEADER_LEASE_MS must be at least 1000/,
    );
  });

  it("lets ten wrong passwords through before sign-in waits, unless raised, never none", () => {
    expect(parseServerConfig([], {}).signInFreeFailures).toBe(10);
    const raised = parseServerConfig([], { LLMGW_SIGNIN_FREE_FAILURES: "50" });
    expect(raised.signInFreeFailures).toBe(50);
    expect(() => parseServerConfig([], { LLMGW_SIGNIN_FREE_FAILURES: "0" })).toThrow(
      /LLMGW_SIGNIN_FREE_FAILURES must be at least 1/,
    );
  });

  it("leaves /metrics open unless LLMGW_METRICS_TOKEN is set", () => {
    expect(parseServerConfig([], {}).metricsToken).toBeNull();
    expect(
      parseServerConfig([], { LLMGW_METRICS_TOKEN: "scrape-0123456789abcdef" }).metricsToken,
    ).toBe("scrape-0123456789abcdef");
  });

  it("turns the gateway checks off only for a server bound to loopback (benchmarks)", () => {
    expect(parseServerConfig([], {}).gatewayChecks).toBe(true);
    expect(parseServerConfig([], { LLMGW_GATEWAY_CHECKS: "off" }).gatewayChecks).toBe(false);
    expect(() =>
      parseServerConfig([], { LLMGW_GATEWAY_CHECKS: "off", LLMGW_BIND: "0.0.0.0" }),
    ).toThrow(/LLMGW_GATEWAY_CHECKS=off .* LLMGW_BIND=127.0.0.1/);
    expect(() => parseServerConfig([], { LLMGW_GATEWAY_CHECKS: "no" })).toThrow(
      /LLMGW_GATEWAY_CHECKS must be on or off/,
    );
  });

  it("reads the gateway's knobs with their defaults, and names a bad one", () => {
    expect(parseServerConfig([], {}).gateway).toEqual({
      queueSize: 256,
      queueWaitMs: 30_000,
      endpointMaxInFlight: 256,
      scrapeIntervalMs: 3_000,
      onDemandWaitMs: 300_000,
      onDemandIdleMs: 600_000,
      allowPrivateUpstreams: false,
      keyFileDir: null,
      tracing: { endpoint: null, sampleRatio: 1, exportDelayMs: 5_000 },
    });
    const set = parseServerConfig([], {
      LLMGW_QUEUE_SIZE: "0",
      LLMGW_ALLOW_PRIVATE_UPSTREAMS: "true",
    }).gateway;
    expect([set.queueSize, set.allowPrivateUpstreams]).toEqual([0, true]);
    expect(() => parseServerConfig([], { LLMGW_QUEUE_WAIT_MS: "0" })).toThrow(
      /LLMGW_QUEUE_WAIT_MS must be at least 1/,
    );
    expect(() => parseServerConfig([], { LLMGW_ALLOW_PRIVATE_UPSTREAMS: "yes" })).toThrow(
      /LLMGW_ALLOW_PRIVATE_UPSTREAMS must be true or false/,
    );
    expect(() => parseServerConfig([], { LLMGW_SCRAPE_INTERVAL_MS: "10" })).toThrow(
      /LLMGW_SCRAPE_INTERVAL_MS must be at least 200/,
    );
  });

  it("turns key files off unless LLMGW_KEY_FILE_DIR names an absolute directory", () => {
    expect(parseServerConfig([], {}).gateway.keyFileDir).toBeNull();
    expect(
      parseServerConfig([], { LLMGW_KEY_FILE_DIR: "/srv/llmgw/keys/" }).gateway.keyFileDir,
    ).toBe("/srv/llmgw/keys");
    expect(() => parseServerConfig([], { LLMGW_KEY_FILE_DIR: "keys" })).toThrow(
      /LLMGW_KEY_FILE_DIR must be an absolute path/,
    );
  });

  it("keeps MCP servers on public addresses unless LLMGW_MCP_ALLOW_PRIVATE says otherwise", () => {
    expect(parseServerConfig([], {}).mcp).toEqual({
      isPrivateAllowed: false,
      breakerOpenMs: 60_000,
      defaultTimeoutMs: 30_000,
    });
    expect(parseServerConfig([], { LLMGW_MCP_ALLOW_PRIVATE: "1" }).mcp.isPrivateAllowed).toBe(true);
    expect(() => parseServerConfig([], { LLMGW_MCP_ALLOW_PRIVATE: "yes" })).toThrow(
      /LLMGW_MCP_ALLOW_PRIVATE must be 1 or 0/,
    );
  });

  it("checks peers every 5 s and syncs them every minute, and refuses a check faster than 200 ms", () => {
    expect(parseServerConfig([], {}).federation).toEqual({
      checkIntervalMs: 5_000,
      syncIntervalMs: 60_000,
    });
    expect(
      parseServerConfig([], { LLMGW_FEDERATION_CHECK_MS: "500" }).federation.checkIntervalMs,
    ).toBe(500);
    expect(() => parseServerConfig([], { LLMGW_FEDERATION_CHECK_MS: "50" })).toThrow(
      /LLMGW_FEDERATION_CHECK_MS must be at least 200/,
    );
  });
});
