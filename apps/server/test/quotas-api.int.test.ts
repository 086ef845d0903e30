// Quotas and model ownership end to end: a real server and a simulated H100 node, a sim-engine
// replica owned by a team, quotas set through tRPC and through `llmgw ctl`, usage read from the
// live replica, an owner change that keeps the replica running, and refusals that answer clean
// sentences, including an operator trying to hand their own team the fleet.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnLlmgw, tempDir, waitFor } from "@llmgw/testing";
import type { ScopeQuotaView } from "@llmgw/api";
import {
  ADMIN_PASSWORD,
  apiClient,
  codeOf,
  rejectionOf,
  sessionToken,
  simGpuModel,
  simWeightsSource,
  startFleet,
  type Fleet,
} from "./harness";

const MODEL = "ml-chat";
const H100 = "gpus:H100-80G";
const OPERATOR_PASSWORD = "quota-operator-pw";
/** No stack frame, SQL or driver text reaches a client. */
const INTERNAL_TEXT = /\bat \w+ \(|node_modules|SELECT|INSERT|duplicate key|relation "/i;

describe("quotas and model owners over the API and the CLI", () => {
  let fleet: Fleet;
  let configDir: string;

  beforeAll(async () => {
    fleet = await startFleet({
      env: { LLMGW_RESYNC_INTERVAL_MS: "300" },
      agents: [{ name: "it-quota-gpu", profile: "h100x8" }],
    });
    configDir = (await tempDir("it-quota-ctl")).path;
    await fleet.api.org.create.mutate({ kind: "org", name: "acme" });
    for (const team of ["ml", "web"])
      await fleet.api.org.create.mutate({ kind: "team", name: team, parent: "org:acme" });
    await fleet.api.people.create.mutate({
      ...{ username: "otto", role: "operator", password: OPERATOR_PASSWORD },
      homeOwner: "team:ml",
    });
    const source = await simWeightsSource("it-quota-weights");
    await fleet.api.models.add.mutate({
      definition: { ...simGpuModel(MODEL, source, { gpus: 2 }), owner: { team: "ml" } },
    });
    await fleet.readyReplicas(MODEL, 1, 60_000);
  });

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  const scope = async (name: string): Promise<ScopeQuotaView | undefined> =>
    (await fleet.api.quotas.list.query()).find((view) => view.scope === name);
  const cardsOf = (view: ScopeQuotaView | undefined) =>
    view?.lines.find((line) => line.resource === H100);

  async function ctl(args: string[], stdin?: string) {
    const proc = spawnLlmgw(["ctl", ...args], {
      env: { LLMGW_CONFIG_DIR: configDir },
      stdin: stdin === undefined ? "ignore" : "pipe",
    });
    if (stdin !== undefined) proc.child.stdin?.end(stdin);
    const exit = await proc.exited;
    return { code: exit.code, output: proc.output() };
  }

  it("answers what the team and its org hold from the live replica, with borrowing, in the list and the metrics", async () => {
    const set = await fleet.api.quotas.set.mutate({
      scope: "team:ml",
      guarantee: "gpus=H100-80G:1,cores=8",
      limit: "gpus=H100-80G:4",
    });
    expect(set.quota).toMatchObject({
      guaranteeText: "gpus=H100-80G:1,cores=8",
      limitText: "gpus=H100-80G:4",
      updatedBy: "admin",
    });
    // The replica holds 2 cards: 1 within the guarantee, 1 borrowed; the org above holds them too.
    expect(cardsOf(set)).toEqual({ resource: H100, held: 2, guaranteed: 1, limit: 4, borrowed: 1 });
    expect(set.atLimit).toBe(false);
    expect(cardsOf(await scope("org:acme"))).toMatchObject({ held: 2, guaranteed: 0, borrowed: 2 });

    const metrics = await (await fetch(`${fleet.server.apiUrl}/metrics`)).text();
    expect(metrics).toMatch(/^llmgw_quota_held\{scope="team:ml",resource="gpus:H100-80G"\} 2$/m);
    expect(metrics).toMatch(
      /^llmgw_quota_borrowed\{scope="team:ml",resource="gpus:H100-80G"\} 1$/m,
    );
    expect(metrics).toMatch(/^llmgw_quota_limit\{scope="team:ml",resource="gpus:H100-80G"\} 4$/m);
    const audit = await fleet.api.audit.list.query({ action: "quota.set" });
    expect(audit.map((entry) => [entry.actor, entry.target])).toEqual([["admin", "team:ml"]]);
  });

  it("sets, lists and removes quotas with llmgw ctl, and names the part of the amounts it could not read", async () => {
    const login = await ctl(
      ["login", "--server", fleet.server.apiUrl, "--password-stdin"],
      `${ADMIN_PASSWORD}\n`,
    );
    expect(login.code).toBe(0);
    const set = await ctl([
      "quota",
      "set",
      "team:web",
      "--guarantee",
      "cores=8",
      "--limit",
      "cores=16",
    ]);
    expect(set.code).toBe(0);
    expect(set.output).toMatch(/team:web is guaranteed cores=8, with a limit of cores=16/);

    const table = await ctl(["quota"]);
    expect(table.code).toBe(0);
    expect(table.output).toMatch(/^SCOPE\s+RESOURCE\s+HELD\s+GUARANTEED\s+LIMIT\s+BORROWED$/m);
    expect(table.output).toMatch(/^team:ml\s+gpus:H100-80G\s+2\s+1\s+4\s+1$/m);
    const json = JSON.parse((await ctl(["quota", "list", "--json"])).output) as ScopeQuotaView[];
    expect(json.find((view) => view.scope === "team:web")?.quota?.limitText).toBe("cores=16");

    const bad = await ctl(["quota", "set", "team:web", "--guarantee", "gpus=H100-80G:lots"]);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(
      /guarantee: "gpus=H100-80G:lots" was refused: the number of H100-80G cards/,
    );
    expect((await ctl(["quota", "remove", "team:web"])).code).toBe(0);
    expect(await scope("team:web")).toBeUndefined();
  });

  it("moves the model to another owner without restarting its replica, and its cards move with it", async () => {
    const [before] = await fleet.api.replicas.list.query({ model: MODEL });
    const revision = (await fleet.api.models.get.query({ name: MODEL })).revision;
    const moved = await fleet.api.models.setOwner.mutate({ model: MODEL, owner: "team:web" });
    expect(moved).toMatchObject({ owner: "team:web", revision });

    await waitFor(async () => (cardsOf(await scope("team:web"))?.held === 2 ? true : undefined), {
      what: "team:web holding the model's 2 cards",
      timeoutMs: 10_000,
    });
    expect(cardsOf(await scope("team:ml"))).toMatchObject({ held: 0, guaranteed: 1 });
    // Several passes later the same replica still serves, at the same revision.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = (await fleet.api.replicas.list.query({ model: MODEL })).filter(
      (replica) => replica.phase !== "stopped",
    );
    expect(after.map((replica) => [replica.id, replica.phase])).toEqual([[before?.id, "ready"]]);
    expect((await fleet.api.models.get.query({ name: MODEL })).revision).toBe(revision);

    const cleared = await fleet.api.models.setOwner.mutate({ model: MODEL, owner: null });
    expect(cleared.owner).toBeNull();
    const audit = await fleet.api.audit.list.query({ action: "model.owner" });
    expect(audit).toHaveLength(2);
  });

  it("refuses bad scopes, amounts, limits and owners with clean sentences, storing nothing", async () => {
    const refusals = [
      [
        () => fleet.api.quotas.set.mutate({ scope: "team:ghost", guarantee: "cores=1" }),
        "NOT_FOUND",
        /team:ghost is not in the org tree/,
      ],
      [
        () => fleet.api.quotas.set.mutate({ scope: "user:otto", guarantee: "cores=1" }),
        "BAD_REQUEST",
        /give org:NAME, team:NAME or project:NAME/,
      ],
      [
        () => fleet.api.quotas.set.mutate({ scope: "team:ml", guarantee: "disks=3" }),
        "BAD_REQUEST",
        /"disks" is not a resource/,
      ],
      [
        () =>
          fleet.api.quotas.set.mutate({
            scope: "team:ml",
            guarantee: "cores=64",
            limit: "cores=32",
          }),
        "BAD_REQUEST",
        /guarantee of 64 cores is above its limit of 32/,
      ],
      [
        () => fleet.api.quotas.set.mutate({ scope: "org:acme", guarantee: "", limit: "cores=4" }),
        "BAD_REQUEST",
        /team:ml: the guarantee of 8 cores is above the limit of org:acme \(4\)/,
      ],
      [
        () => fleet.api.quotas.remove.mutate({ scope: "team:web" }),
        "NOT_FOUND",
        /team:web has no quota/,
      ],
      [
        () => fleet.api.models.setOwner.mutate({ model: MODEL, owner: "user:otto" }),
        "BAD_REQUEST",
        /not an owner a model can have/,
      ],
      [
        () => fleet.api.models.setOwner.mutate({ model: MODEL, owner: "team:ghost" }),
        "NOT_FOUND",
        /team:ghost is not in the org tree/,
      ],
      [
        () => fleet.api.models.setOwner.mutate({ model: "ghost", owner: "team:ml" }),
        "NOT_FOUND",
        /model "ghost" is not in the catalog/,
      ],
    ] as const;
    for (const [send, code, message] of refusals) {
      const work = send();
      const text = await rejectionOf(work);
      expect(text).toMatch(message);
      expect(text).not.toMatch(INTERNAL_TEXT);
      expect(await codeOf(work)).toBe(code);
    }
    expect(
      (await fleet.api.quotas.list.query()).filter((view) => view.quota).map((v) => v.scope),
    ).toEqual(["team:ml"]);
    expect((await fleet.api.models.get.query({ name: MODEL })).owner).toBeNull();
  });

  it("refuses an operator who gives their own team the whole fleet or removes a rival's quota", async () => {
    const otto = apiClient(
      fleet.server.apiUrl,
      await sessionToken(fleet.server.apiUrl, "otto", OPERATOR_PASSWORD),
    );
    const grab = otto.quotas.set.mutate({
      scope: "team:ml",
      guarantee: "gpus=H100-80G:10000",
      limit: null,
    });
    expect(await codeOf(grab)).toBe("FORBIDDEN");
    expect(await codeOf(otto.quotas.remove.mutate({ scope: "team:ml" }))).toBe("FORBIDDEN");
    expect(
      await codeOf(
        apiClient(fleet.server.apiUrl, null).quotas.set.mutate({ scope: "team:ml", guarantee: "" }),
      ),
    ).toBe("UNAUTHORIZED");
    // Looking is allowed, and the quota is as the admin left it.
    const mine = (await otto.quotas.list.query()).find((view) => view.scope === "team:ml");
    expect(mine?.quota?.guaranteeText).toBe("gpus=H100-80G:1,cores=8");
  });
});
