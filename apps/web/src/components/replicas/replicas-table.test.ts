// The replica table rendered to HTML: a replica spanning nodes lists its shards under it, by rank,
// with node, cards and phase, in the page's language.
import type { ReplicaView } from "@llmgw/api";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n";
import type { Language } from "../../lib/preferences";
import { replicaLogsPath, ReplicasTable } from "./replicas-table";

function replica(overrides: Partial<ReplicaView>): ReplicaView {
  return {
    ...{ id: "r", model: "m", profile: "p", nodeId: "n", nodeName: "n", gpuIndexes: [0] },
    ...{ engine: "vllm", phase: "ready", message: "", endpoint: null, lastUsedAt: null },
    ...{ phaseChangedAt: "2030-01-01T00:00:00.000Z", fetchProgress: null, shards: [] },
    ...overrides,
  };
}

function render(
  replicas: ReplicaView[],
  language: Language = "en",
  hiddenIds: string[] = [],
): string {
  const i18n = createI18n(language);
  const navigation = {
    selectedId: null,
    onSelect: () => undefined,
    onOpen: () => undefined,
    onOpenInWindow: () => undefined,
  };
  const columnChoice = { hiddenIds, onToggle: () => undefined };
  return renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(ReplicasTable, {
        replicas,
        window: { total: replicas.length, offset: 0, onRange: () => undefined },
        sorting: { sort: { key: "phase", direction: "asc" }, onSort: () => undefined },
        navigation,
        columnChoice,
      }),
    ),
  );
}

const spanning = replica({
  id: "big-1",
  phase: "starting",
  shards: [
    { rank: 0, nodeId: "id-a", nodeName: "gpu-a", gpuIndexes: [0, 1], phase: "ready", message: "" },
    {
      rank: 1,
      nodeId: "id-b",
      nodeName: "gpu-b",
      gpuIndexes: [2, 3],
      phase: "starting",
      message: "",
    },
  ],
});

describe("ReplicasTable", () => {
  it("lists the shards of a replica spanning nodes beneath it, each with its node, cards and phase", () => {
    const html = render([spanning]);
    expect(html).toContain("2 nodes");
    expect(html).toContain("Shards across 2 nodes");
    const shards = html.split('data-testid="replica-shard"').slice(1);
    expect(shards).toHaveLength(2);
    expect(shards[0]).toMatch(
      /rank 0, leader \(serves the API\).*gpu-a.*GPUs 0, 1.*data-phase="ready"/,
    );
    expect(shards[1]).toMatch(
      /rank 1, worker \(serves no API\).*gpu-b.*GPUs 2, 3.*data-phase="starting"/,
    );
  });

  it("adds no shard rows for a replica on one node", () => {
    const html = render([replica({})]);
    expect(html).not.toContain("replica-shards");
    expect(html).toContain('data-testid="replica-node-link"');
  });

  it("gives every replica a menu, opens it as its engine's log, and hides the columns hidden", () => {
    const html = render([replica({ id: "r/1", nodeId: "id a" })], "en", ["endpoint", "id"]);
    expect(html).toContain('aria-label="Actions for replica r/1"');
    expect(html).not.toMatch(/<th[^>]*>Endpoint</);
    expect(html).toMatch(/<th[^>]*>ID</);
    expect(html).toMatch(/<th[^>]*aria-sort="ascending"[^>]*><button[^>]*>Phase</);
    expect(html).toContain('data-testid="sort-lastUsed"');
    expect(replicaLogsPath({ id: "r/1", nodeId: "id a" })).toBe("/nodes/id%20a/logs?source=r%2F1");
  });

  it("speaks Turkish", () => {
    expect(render([spanning], "tr")).toContain("sıra 1, işçi (API sunmaz)");
  });
});
