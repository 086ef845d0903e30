// The peers this cluster offers models of, as the gateway and the API see them: each peer's row,
// its key opened once, its breaker fed by /ready checks on a timer and by the requests sent to it,
// and its models kept in step with its /v1/models on a timer and on `ctl federation sync`. The
// rows are read again before every round of checks, so a peer added, removed or synced on another
// control plane (a standby, or the leader before a failover) is seen here within one interval.
import type { Actor, FederationAddInput, FederationSyncResult, PeerView } from "@llmgw/api";
import type { FederationPeerRow } from "@llmgw/db";
import { messageOf, must } from "@llmgw/domain";
import { request, type Agent } from "undici";
import { createGuardedAgent } from "../outbound/guarded-agent";
import { HOP_HEADER } from "./hop";
import { PeerBreaker } from "./peer-breaker";
import { checkPeerUrl, peerPath } from "./peer-url";
import { peerNotFound, type PeersStore } from "./peers-store";
import { diffPeerModels, type PeerModel } from "./sync-diff";

/** A /ready check that takes longer than this counts as failed, whatever the interval. */
const CHECK_TIMEOUT_MAX_MS = 3_000;
const SYNC_TIMEOUT_MS = 10_000;
/** More models than any peer offers; a longer list is cut, and the cut is logged. */
const PEER_MODELS_MAX = 1_000;
const PEER_MODEL_NAME = /^[A-Za-z0-9._:/@+-]{1,200}$/;

export interface LivePeer {
  row: FederationPeerRow;
  key: string;
  breaker: PeerBreaker;
  isChecked: boolean;
  latencyMs: number | null;
  lastError: string | null;
  models: Map<string, PeerModel>;
}

/** Where a `PEER/MODEL` request goes: the peer and the peer's own name for the model. */
export interface PeerTarget {
  peer: LivePeer;
  model: string;
  isWithdrawn: boolean;
}

export interface FederationDeps {
  store: PeersStore;
  clusterId: string;
  checkIntervalMs: number;
  syncIntervalMs: number;
  /** Every model name a fallback here names: those are kept withdrawn, not dropped. */
  fallbackNames(): ReadonlySet<string>;
  nowMs(): number;
  log(line: string): void;
}

export class Federation {
  readonly agent: Agent;
  private readonly peers = new Map<string, LivePeer>();
  private timers: NodeJS.Timeout[] = [];
  /** Counts adds, removes and syncs made here, so a reload that raced one is dropped. */
  private localChanges = 0;

  constructor(private readonly deps: FederationDeps) {
    // Peers are on the company's network: private addresses may be reached, metadata never.
    this.agent = createGuardedAgent({ allowPrivate: true, who: "peer clusters" });
  }

  get clusterId(): string {
    return this.deps.clusterId;
  }

  async start(): Promise<void> {
    for (const row of await this.deps.store.all()) this.remember(row);
    const check = setInterval(() => void this.reloadThenCheck(), this.deps.checkIntervalMs);
    const sync = setInterval(() => void this.sync(null), this.deps.syncIntervalMs);
    check.unref();
    sync.unref();
    this.timers = [check, sync];
    void this.checkAll();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.agent.close();
  }

  /** The peer and model a `PEER/MODEL` name stands for; null for any other name. */
  target(name: string): PeerTarget | null {
    const slash = name.indexOf("/");
    if (slash <= 0) return null;
    const peer = this.peers.get(name.slice(0, slash));
    const model = peer?.models.get(name.slice(slash + 1));
    if (!peer || !model) return null;
    return { peer, model: model.name, isWithdrawn: model.isWithdrawn };
  }

  /** Whether a request for this peer model would be sent now (for fallbacks). */
  isAvailable(name: string): boolean {
    const target = this.target(name);
    return target !== null && !target.isWithdrawn && !target.peer.breaker.isOpen;
  }

  /** Every peer model offered here, `PEER/MODEL`, withdrawn ones left out. */
  offered(): string[] {
    return [...this.peers.values()].flatMap((peer) =>
      [...peer.models.values()]
        .filter((model) => !model.isWithdrawn)
        .map((model) => `${peer.row.name}/${model.name}`),
    );
  }

  livePeers(): LivePeer[] {
    return [...this.peers.values()];
  }

  async list(): Promise<PeerView[]> {
    return [...this.peers.values()].map((peer) => viewOf(peer));
  }

  async add(input: FederationAddInput, actor: Actor): Promise<PeerView> {
    const url = checkPeerUrl(input.url).href.replace(/\/+$/, "");
    const row = await this.deps.store.add(
      { name: input.name, url, key: input.key, sendsTags: input.sendsTags ?? false },
      actor,
    );
    this.localChanges += 1;
    const peer = this.remember(row);
    await this.check(peer);
    await this.syncPeer(peer);
    return viewOf(peer);
  }

  async remove(name: string, actor: Actor): Promise<{ name: string }> {
    await this.deps.store.remove(name, actor);
    this.localChanges += 1;
    this.peers.delete(name);
    return { name };
  }

  async sync(name: string | null): Promise<FederationSyncResult[]> {
    // A peer just added on another control plane is synced here too, not refused as unknown.
    if (name !== null && !this.peers.has(name)) await this.reload();
    const peers = name === null ? [...this.peers.values()] : [this.peers.get(name)];
    if (peers.some((peer) => peer === undefined)) throw peerNotFound(name ?? "");
    return Promise.all(peers.map((peer) => this.syncPeer(must(peer, "a known peer"))));
  }

  /** The headers every call to a peer carries: its key and the hops, this cluster added. */
  peerHeaders(peer: LivePeer, hops: string): Record<string, string> {
    return { authorization: `Bearer ${peer.key}`, [HOP_HEADER]: hops };
  }

  private remember(row: FederationPeerRow): LivePeer {
    const peer: LivePeer = {
      row,
      key: this.deps.store.openKey(row),
      breaker: new PeerBreaker(),
      isChecked: false,
      latencyMs: null,
      lastError: null,
      models: new Map(row.models.map((model) => [model.name, model])),
    };
    this.peers.set(row.name, peer);
    return peer;
  }

  /**
   * Takes in what other control planes changed: peers added and removed, and models synced (a
   * row whose `updatedAt` moved). A request never waits on this: it reads the peers in memory, and
   * when the store is out of reach the peers known before stay as they were.
   */
  async reload(): Promise<void> {
    const changesBefore = this.localChanges;
    let rows: FederationPeerRow[];
    try {
      rows = await this.deps.store.all();
    } catch (error) {
      this.deps.log(`federation: peers kept from before; the store: ${messageOf(error)}`);
      return;
    }
    // Rows read before an add or remove made here finished would undo it until the next round.
    if (this.localChanges !== changesBefore) return;
    const named = new Set(rows.map((row) => row.name));
    for (const name of this.peers.keys()) if (!named.has(name)) this.peers.delete(name);
    for (const row of rows) {
      const known = this.peers.get(row.name);
      if (!known || isAnotherPeer(known.row, row)) {
        // A key that does not open (another master key) must not stop the other peers' reload.
        try {
          void this.check(this.remember(row));
        } catch (error) {
          this.deps.log(`federation: peer ${row.name} left out: ${messageOf(error)}`);
        }
      } else if (row.updatedAt.getTime() !== known.row.updatedAt.getTime()) {
        known.row = row;
        known.models = new Map(row.models.map((model) => [model.name, model]));
      }
    }
  }

  private async reloadThenCheck(): Promise<void> {
    await this.reload();
    await this.checkAll();
  }

  private async checkAll(): Promise<void> {
    await Promise.all([...this.peers.values()].map((peer) => this.check(peer)));
  }

  /** One /ready check, timed; its answer opens or closes the peer's breaker. */
  private async check(peer: LivePeer): Promise<void> {
    const startedMs = this.deps.nowMs();
    const timeoutMs = Math.min(this.deps.checkIntervalMs, CHECK_TIMEOUT_MAX_MS);
    let failure: string | null = null;
    try {
      const answer = await request(peerPath(peer.row.url, "/ready"), {
        dispatcher: this.agent,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await answer.body.dump();
      if (answer.statusCode !== 200) failure = `its /ready answered ${answer.statusCode}`;
    } catch (error) {
      failure = `its /ready did not answer within ${timeoutMs} ms: ${messageOf(error)}`;
    }
    const wasOpen = peer.breaker.isOpen;
    peer.isChecked = true;
    peer.latencyMs = this.deps.nowMs() - startedMs;
    peer.lastError = failure;
    if (failure === null) peer.breaker.checkPassed();
    else peer.breaker.checkFailed();
    if (wasOpen !== peer.breaker.isOpen)
      this.deps.log(
        `federation: peer ${peer.row.name} is ${failure === null ? "back in routing" : `taken out of routing: ${failure}`}`,
      );
  }

  private async syncPeer(peer: LivePeer): Promise<FederationSyncResult> {
    const name = peer.row.name;
    const failed = (error: string): FederationSyncResult => {
      this.deps.log(`federation: syncing peer ${name} failed: ${error}`);
      return { peer: name, ok: false, added: [], withdrawn: [], removed: [], error };
    };
    let offered: string[];
    try {
      offered = await this.fetchModels(peer);
    } catch (error) {
      return failed(messageOf(error));
    }
    const prefix = `${name}/`;
    const named = new Set(
      [...this.deps.fallbackNames()]
        .filter((fallback) => fallback.startsWith(prefix))
        .map((fallback) => fallback.slice(prefix.length)),
    );
    const diff = diffPeerModels([...peer.models.values()], offered, (model) => named.has(model));
    try {
      await this.deps.store.saveModels(name, diff.models, new Date(this.deps.nowMs()));
    } catch (error) {
      return failed(`its models could not be stored: ${messageOf(error)}`);
    }
    const at = new Date(this.deps.nowMs());
    this.localChanges += 1;
    peer.models = new Map(diff.models.map((model) => [model.name, model]));
    peer.row = { ...peer.row, models: diff.models, syncedAt: at, updatedAt: at };
    const { added, withdrawn, removed } = diff;
    return { peer: name, ok: true, added, withdrawn, removed, error: null };
  }

  private async fetchModels(peer: LivePeer): Promise<string[]> {
    const answer = await request(peerPath(peer.row.url, "/v1/models"), {
      dispatcher: this.agent,
      headers: this.peerHeaders(peer, this.deps.clusterId),
      signal: AbortSignal.timeout(SYNC_TIMEOUT_MS),
    });
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw new Error(
        `its /v1/models answered ${answer.statusCode}${answer.statusCode === 401 ? " (the peer refused the key given with --key-file)" : ""}`,
      );
    }
    const body = (await answer.body.json().catch(() => null)) as { data?: unknown } | null;
    if (!body || !Array.isArray(body.data)) throw new Error("its /v1/models is not a model list");
    const names = body.data
      .map((item) => (item as { id?: unknown } | null)?.id)
      .filter((id): id is string => typeof id === "string" && PEER_MODEL_NAME.test(id));
    if (names.length > PEER_MODELS_MAX)
      this.deps.log(
        `federation: peer ${peer.row.name} offers ${names.length} models; the first ${PEER_MODELS_MAX} are kept`,
      );
    return names.slice(0, PEER_MODELS_MAX);
  }
}

/** A row for the same name that was removed and added again (a new address or key). */
function isAnotherPeer(known: FederationPeerRow, row: FederationPeerRow): boolean {
  return (
    known.createdAt.getTime() !== row.createdAt.getTime() ||
    known.keySealed !== row.keySealed ||
    known.url !== row.url ||
    known.sendsTags !== row.sendsTags
  );
}

function viewOf(peer: LivePeer): PeerView {
  return {
    name: peer.row.name,
    url: peer.row.url,
    sendsTags: peer.row.sendsTags,
    state: !peer.isChecked ? "unknown" : peer.breaker.isOpen ? "down" : "up",
    latencyMs: peer.latencyMs,
    lastError: peer.lastError,
    models: [...peer.models.values()].map((model) => ({
      name: `${peer.row.name}/${model.name}`,
      isWithdrawn: model.isWithdrawn,
    })),
    syncedAt: peer.row.syncedAt?.toISOString() ?? null,
    createdBy: peer.row.createdBy,
  };
}
