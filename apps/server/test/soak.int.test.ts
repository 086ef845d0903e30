// R7, the soak: the demo fleet (three simulated nodes, two models) on PostgreSQL 15 under steady
// client load through /v1, with a fault every few seconds to minutes from a seeded schedule (an
// agent killed or frozen, an engine killed or answering 500s, PostgreSQL restarted, a disk full).
// An invariant checker samples the store, the agents and the API about once a second: no card held
// twice, no model above its size, every parked or unplaceable model says why. At the end every
// request a client saw fail must be explained by its answer (a stream cut with an error code, or a
// 429/503 with a code) and the usage rows must match what the clients saw, request by request.
//
// `npm test` runs it as a three-minute smoke with a fault every 25 s (each kind once);
// `npm run soak -- --minutes 30` runs the real thing (a fault every 2 minutes) and writes its report
// into docs/reliability.md.
import { cpus, loadavg } from "node:os";
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, openStore, replicas, usageRecords, type Store } from "@llmgw/db";
import { messageOf } from "@llmgw/domain";
import {
  serverSetup,
  startPostgres,
  waitFor,
  withMarkedSection,
  type PostgresServer,
} from "@llmgw/testing";
import { simGpuModel, simWeightsSource, startFleet, type Fleet } from "./harness";
import { checkPlacements } from "./control-plane-faults";
import { sleep, startLoad, startSampler, type RunningLoad } from "./fault-load";
import { engineRecords, inject, type SoakWorld } from "./soak/faults";
import { explainFailure, OrphanEngines, reconcileUsage, settledSince } from "./soak/invariants";
import { soakSection, type SoakResult } from "./soak/report";
import { faultSchedule } from "./soak/schedule";

const MINUTES = Number(process.env.LLMGW_SOAK_MINUTES ?? 3);
const EVERY_S = Number(process.env.LLMGW_SOAK_FAULT_EVERY_S ?? (MINUTES >= 10 ? 120 : 25));
const SEED = Number(process.env.LLMGW_SOAK_SEED ?? 1);
/** docs/reliability.md (or another file) to write the report section into; absent: printed only. */
const REPORT = process.env.LLMGW_SOAK_REPORT;
const SETTLE_MS = 30_000;

/** A process's resident memory in MiB (`VmRSS` in /proc), Linux only. */
function residentMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

const NODES = [1, 2, 3].map((i) => ({ name: `soak-${i}`, profile: "l40sx4" }));
/** Two models, six of the twelve cards: room to rebuild a lost node's replicas elsewhere. */
const MODELS = [
  { name: "soak-a", gpus: 2, size: 2, clients: 3 },
  { name: "soak-b", gpus: 1, size: 2, clients: 2 },
];
const DESIRED = new Map(MODELS.map((m) => [m.name, m.size]));
/** No size bound: the nodes' records are checked for cards held twice only. */
const UNBOUNDED = new Map(MODELS.map((m) => [m.name, Number.POSITIVE_INFINITY]));
/** Phases in which the store holds a replica's cards. */
const HOLDING = ["placing", "fetching", "starting", "ready", "draining"] as const;
/**
 * How long a node may run an engine the control plane no longer holds: its agent's silence check
 * (5 s idle + 3 s ping), a reconnect, and the engine's 10 s stop grace, with room for a busy machine.
 */
const ORPHAN_BOUND_MS = 45_000;

describe(`R7: a ${MINUTES}-minute soak under faults`, () => {
  let postgres: PostgresServer;
  let store: Store;
  let fleet: Fleet;
  let key: { id: string; key: string };

  beforeAll(async () => {
    postgres = await startPostgres();
    store = await openStore({ kind: "postgres", url: postgres.url });
    const source = await simWeightsSource("it-soak-weights");
    // The production liveness settings (heartbeat 2 s, a node lost after 10 s of silence).
    const setup = { ...(await serverSetup(postgres.url)), heartbeatIntervalMs: 2_000 };
    fleet = await startFleet({ setup, agents: NODES });
    for (const model of MODELS)
      await fleet.api.models.add.mutate({
        definition: simGpuModel(model.name, source, {
          min: model.size,
          max: model.size,
          gpus: model.gpus,
          args: ["--control"],
        }),
      });
    for (const model of MODELS) await fleet.readyReplicas(model.name, model.size, 120_000);
    const created = await fleet.api.keys.create.mutate({
      owner: "team:soak",
      models: MODELS.map((m) => m.name),
    });
    key = { id: created.view.id, key: created.key };
  });

  afterAll(async () => {
    await fleet?.stop(Boolean(process.env.IT_DUMP));
    await store?.close();
    await postgres?.stop();
  });

  /** Every model ready at its size, none parked, in a `models.list` answer. */
  const settledIn = (models: Awaited<ReturnType<typeof fleet.api.models.list.query>>) =>
    MODELS.every((m) => {
      const view = models.find((v) => v.name === m.name);
      return view !== undefined && !view.isParked && view.replicasReady >= m.size;
    });
  const settled = async () => settledIn(await fleet.api.models.list.query());

  it(
    "keeps every invariant, explains every failed request and counts every request once",
    async () => {
      const startedMs = Date.now();
      const durationMs = MINUTES * 60_000;
      const loads: RunningLoad[] = MODELS.map((model) =>
        startLoad({
          bases: [fleet.v1],
          key: key.key,
          model: model.name,
          clients: model.clients,
          maxTokens: 8,
          requestIdPrefix: `soak-${model.name}`,
        }),
      );
      const agentDirs = NODES.map((n) => fleet.agent(n.name).dataDir);
      const orphans = new OrphanEngines(ORPHAN_BOUND_MS);
      const checker = startSampler(async () => {
        // The store: no card held twice, no model above its size. The nodes: no card held twice.
        // An engine a node still runs for a replica the store no longer holds is not counted
        // towards its model's size (its node was taken for lost while its agent was silent, or it
        // was replaced); it must be gone within the bound instead.
        const found = [
          ...(await checkPlacements(store.db, [], DESIRED)),
          ...(await checkPlacements(store.db, agentDirs, UNBOUNDED)).filter(
            (v) => v.source === "agents",
          ),
        ].map((v) => `${v.source}: ${v.what}`);
        const held = await store.db
          .select({ id: replicas.id })
          .from(replicas)
          .where(inArray(replicas.phase, [...HOLDING]));
        const engines = NODES.flatMap((n) =>
          engineRecords(fleet.agent(n.name).dataDir).map((e) => ({ ...e, node: n.name })),
        );
        found.push(...orphans.check(engines, new Set(held.map((r) => r.id)), Date.now()));
        const models = await fleet.api.models.list.query();
        for (const model of models) {
          if (model.state === "parked" && !model.lastError)
            found.push(`${model.name} is parked and says no reason`);
          if (model.state === "unplaceable" && model.unplaceableReasons.length === 0)
            found.push(`${model.name} is unplaceable and says no reason`);
        }
        const atS = Math.round((Date.now() - startedMs) / 1000);
        return {
          atMs: Date.now(),
          found: found.map((what) => `at ${atS} s: ${what}`),
          settled: settledIn(models),
        };
      }, 1_000);

      // The server's resident memory once a minute (P10: no growth over a long run).
      const rss = startSampler(
        async () => ({
          atMin: (Date.now() - startedMs) / 60_000,
          mib: residentMiB(fleet.server.process.pid),
        }),
        60_000,
      );
      const world: SoakWorld = { fleet, postgres, nodes: NODES, models: [...DESIRED.keys()] };
      const faults: SoakResult["faults"] = [];
      let lastFaultEndMs = startedMs;
      for (const fault of faultSchedule({
        seed: SEED,
        durationMs,
        everyMs: EVERY_S * 1000,
        settleMs: SETTLE_MS,
      })) {
        await sleep(Math.max(0, startedMs + fault.atMs - Date.now()));
        const atS = (Date.now() - startedMs) / 1000;
        let what: string;
        try {
          what = await inject(world, fault);
        } catch (error) {
          what = `could not be injected: ${messageOf(error)}`;
        }
        lastFaultEndMs = Date.now();
        faults.push({ atS, kind: fault.kind, what });
        console.log(`soak ${atS.toFixed(0)} s: ${fault.kind}: ${what}`);
      }
      await sleep(Math.max(0, startedMs + durationMs - Date.now()));

      const tallies = await Promise.all(loads.map((load) => load.stop()));
      const samples = await checker.stop();
      const memory = await rss.stop();
      // When every model was ready at its size again after the last fault: the first sample after
      // it from which every later one found them so, read from the checker's samples (it polls
      // while the load still runs); if the last samples did not, wait for it now.
      const settledAtMs =
        settledSince(samples, lastFaultEndMs) ??
        (await waitFor(async () => ((await settled()) ? Date.now() : undefined), {
          what: "every soak model ready at its size again",
          timeoutMs: 90_000,
        }).catch(() => null));

      const requests = tallies.flatMap((t) => t.requests);
      const explained = new Map<string, number>();
      const unexplained: string[] = [];
      for (const { requestId, end } of requests) {
        if (end.kind === "ok") continue;
        const why = explainFailure(end);
        if (why.explained) explained.set(why.how, (explained.get(why.how) ?? 0) + 1);
        else unexplained.push(`${requestId}: ${why.how}`);
      }
      // Usage rows are written in batches about once a second; wait until every one is in.
      const usageRows = async () =>
        store.db
          .select({ requestId: usageRecords.requestId, status: usageRecords.status })
          .from(usageRecords)
          .where(eq(usageRecords.keyId, key.id));
      const rows = await waitFor(
        async () => {
          const found = await usageRows();
          return reconcileUsage(requests, found).length === 0 ? found : undefined;
        },
        { what: "usage rows matching the clients' requests", timeoutMs: 20_000 },
      ).catch(() => usageRows());
      const result: SoakResult = {
        minutes: MINUTES,
        seed: SEED,
        everyS: EVERY_S,
        store: "PostgreSQL 15",
        machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}, Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)} at the end`,
        faults,
        failedAtS: tallies.flatMap((t) => t.failures.map((f) => (f.atMs - startedMs) / 1000)),
        requests: {
          sent: requests.length,
          ok: requests.filter((r) => r.end.kind === "ok").length,
          explained,
          unexplained,
        },
        samples: samples.length,
        violations: samples.flatMap((s) => s.found),
        usage: { rows: rows.length, mismatches: reconcileUsage(requests, rows) },
        serverRss: memory,
        settledS: settledAtMs === null ? null : Math.max(0, settledAtMs - lastFaultEndMs) / 1000,
      };
      const section = soakSection(result);
      console.log(section);
      if (REPORT)
        writeFileSync(REPORT, withMarkedSection("soak:r7", readFileSync(REPORT, "utf8"), section));

      expect(faults.filter((f) => f.what.startsWith("could not"))).toEqual([]);
      expect(result.requests.ok).toBeGreaterThan(MINUTES * 60);
      // About one sample a second; a store restart may cost a few.
      expect(result.samples).toBeGreaterThan(MINUTES * 30);
      expect(result.violations).toEqual([]);
      expect(result.requests.unexplained).toEqual([]);
      expect(result.usage.mismatches).toEqual([]);
      expect(result.settledS).not.toBeNull();
    },
    MINUTES * 60_000 + 300_000,
  );
});
