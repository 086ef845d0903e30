import { ServiceError } from "@llmgw/api";
import { EMPTY_CATALOG, parseModelDefinition } from "@llmgw/domain";
import { AGENT_FEATURE, create, RegisterSchema, type EnvelopeInit } from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { NodeLinks } from "./node-links";
import { FleetRegistry } from "../fleet/registry";
import { catalogSources, createLogsService, createReclaimService } from "./node-requests";

// Long enough that a request actually sent would outlive the test: a refusal must come at once.
const REPLY_TIMEOUT_MS = 60_000;

/** A fleet of one connected node whose agent announced `features`; frames sent to it are kept. */
function fleetWith(features: string[]) {
  const registry = new FleetRegistry();
  const links = new NodeLinks();
  const sent: EnvelopeInit[] = [];
  const register = create(RegisterSchema, {
    nodeId: "id-old",
    nodeName: "gpu-old",
    agentVersion: "0.0.9",
    features,
  });
  registry.connect(register, 1, 0);
  links.attach("id-old", 1, {
    remoteAddress: "10.0.0.9",
    certificateNodeId: "id-old",
    send: (init) => sent.push(init),
    close: () => undefined,
  });
  return { registry, links, sent, catalog: { current: () => EMPTY_CATALOG } };
}

const noAudit = {
  insert: () => {
    throw new Error("reclaim without collect writes no audit row");
  },
};

describe("requests to an agent that did not announce the feature", () => {
  it("refuses logs at once, naming the node, the feature and the upgrade", async () => {
    const fleet = fleetWith([AGENT_FEATURE.replicas]);
    const logs = createLogsService(fleet, REPLY_TIMEOUT_MS);
    const refusal = await logs.get("gpu-old", "agent", 10).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceError);
    expect(refusal).toMatchObject({ kind: "unavailable" });
    expect((refusal as ServiceError).message).toBe(
      'node "gpu-old" cannot answer "logs" requests: its agent (version 0.0.9) does not announce the "logs" feature; agent too old; upgrade the agent',
    );
    expect(fleet.sent).toEqual([]);
  });

  it("refuses a request-id search on an agent that can read its logs but not search them", async () => {
    const fleet = fleetWith([AGENT_FEATURE.replicas, AGENT_FEATURE.logs]);
    const logs = createLogsService(fleet, REPLY_TIMEOUT_MS);
    const refusal = await logs
      .get("gpu-old", "agent", 10, { requestId: "req-1", everySource: true })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ kind: "unavailable" });
    expect((refusal as ServiceError).message).toMatch(
      /cannot answer "log-search" requests: .*agent too old; upgrade the agent$/,
    );
    expect(fleet.sent).toEqual([]);
  });

  it("reports reclaim on that node as refused without asking it", async () => {
    const fleet = fleetWith([AGENT_FEATURE.replicas, AGENT_FEATURE.logs]);
    const reclaim = createReclaimService(noAudit, fleet, REPLY_TIMEOUT_MS);
    const view = await reclaim.run(false, { username: "ops" });
    expect(view.nodes).toEqual([
      {
        node: "gpu-old",
        entries: [],
        bytesFreed: 0,
        error: expect.stringMatching(/"reclaim" feature; agent too old; upgrade the agent$/),
      },
    ]);
    expect(fleet.sent).toEqual([]);
  });

  it("still asks an agent that announced it", async () => {
    const fleet = fleetWith([AGENT_FEATURE.logs]);
    const pending = createLogsService(fleet, REPLY_TIMEOUT_MS).get("gpu-old", "agent", 10);
    expect(fleet.sent).toEqual([
      expect.objectContaining({
        msg: { case: "logsRequest", value: { source: "agent", lines: 10 } },
      }),
    ]);
    fleet.links.detach("id-old", 1);
    await expect(pending).rejects.toThrow(/disconnected before it answered/);
  });
});

describe("catalogSources", () => {
  it("keeps each model's adapters as well as its weights, each once", () => {
    const parsed = [
      { name: "a", source: "/m/a", adapters: [{ name: "sql", source: "/l/sql.safetensors" }] },
      { name: "b", source: "/m/a", adapters: [{ name: "sql", source: "/l/sql.safetensors" }] },
    ].map((input) => {
      const result = parseModelDefinition({
        ...input,
        profiles: [{ name: "p", engine: "sim" }],
      });
      if (!result.ok) throw new Error(result.errors.join("; "));
      return result.model;
    });
    expect(catalogSources(parsed)).toEqual(["/m/a", "/l/sql.safetensors"]);
  });
});
