// Quotas end to end: two teams' models compete for one simulated node of four L40S cards. Team b
// has no guarantee and borrows all four; team a, guaranteed two, asks for two replicas, and two of
// b's borrowing replicas are stopped with a reason naming who took the room back, then a's are
// placed on the freed cards and serve. Quotas are rows in the store (the API comes separately).
import { openStore, quotas } from "@llmgw/db";
import { startPostgres, waitFor, type PostgresServer } from "@llmgw/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simGpuModel, simWeightsSource, startFleet, type Fleet } from "./harness";

const BORROWER = "b-borrow";
const GUARANTEED = "a-guaranteed";
const TAKEN_BACK = `borrowed capacity taken back for team:a (model ${GUARANTEED})`;

describe("quotas: borrowed capacity taken back for a guaranteed team", () => {
  let postgres: PostgresServer | undefined;
  let fleet: Fleet;
  let source: string;

  beforeAll(async () => {
    postgres = await startPostgres();
    const store = await openStore({ kind: "postgres", url: postgres.url });
    await store.db.insert(quotas).values({
      scope: "team:a",
      guarantee: { gpus: { L40S: 2 } },
      limit: null,
    });
    await store.close();
    fleet = await startFleet({
      databaseUrl: postgres.url,
      env: { LLMGW_RESYNC_INTERVAL_MS: "300" },
      agents: [{ name: "it-quota-l40s", profile: "l40sx4" }],
    });
    source = await simWeightsSource("it-quota-weights");
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    await postgres?.stop();
  });

  const live = async (model: string) =>
    (await fleet.api.replicas.list.query({ model })).filter((r) => r.phase !== "stopped");

  it("lets team b borrow every card while team a asks for nothing", async () => {
    await fleet.api.models.add.mutate({
      definition: {
        ...simGpuModel(BORROWER, source, { min: 4, max: 4 }),
        owner: { team: "b" },
        priority_class: "low",
      },
    });
    await fleet.api.models.add.mutate({
      definition: { ...simGpuModel(GUARANTEED, source, { min: 0, max: 2 }), owner: { team: "a" } },
    });
    expect(await fleet.readyReplicas(BORROWER, 4, 120_000)).toHaveLength(4);
    expect(await live(GUARANTEED)).toEqual([]);
  });

  it("stops two of b's replicas when a asks for two, and places a's on the freed cards", async () => {
    const before = new Set((await live(BORROWER)).map((r) => r.id));
    await fleet.api.models.add.mutate({
      definition: { ...simGpuModel(GUARANTEED, source, { min: 2, max: 2 }), owner: { team: "a" } },
    });
    const placed = await fleet.readyReplicas(GUARANTEED, 2, 120_000);
    expect(placed).toHaveLength(2);

    const borrower = await fleet.api.replicas.list.query({ model: BORROWER });
    const taken = borrower.filter((r) => r.phase === "stopped" && before.has(r.id));
    expect(taken.map((r) => r.message)).toEqual([TAKEN_BACK, TAKEN_BACK]);
    expect(borrower.filter((r) => r.phase !== "stopped")).toHaveLength(2);

    // The borrower stays short, and says why: the node is full.
    const status = await waitFor(
      async () => {
        const model = (await fleet.api.models.list.query()).find((m) => m.name === BORROWER);
        return model?.state === "unplaceable" ? model : undefined;
      },
      { what: `${BORROWER} unplaceable`, timeoutMs: 20_000 },
    );
    expect(status.unplaceableReasons.join(" ")).toMatch(/cards/);
  });

  it("keeps a's replicas where they are: b cannot take room back, having no guarantee", async () => {
    const placed = (await live(GUARANTEED)).map((r) => r.id).sort();
    // Several resyncs later nothing has moved.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await live(GUARANTEED)).map((r) => r.id).sort()).toEqual(placed);
    expect(await live(BORROWER)).toHaveLength(2);
  });
});
