// The mirrors of the server's settings as the control plane sees them (docs/mirrors.md): each one
// asked on a timer whether it answers (HEAD of its base URL, timed), and for each file the catalog
// loads from the mirrors whether it holds it (HEAD of the file; for a hub id, its file list and
// every file it lists, hub-holdings.ts). The order nodes are sent the mirrors in follows the answers; removing a file is refused while a catalog model loads it.
import type { Actor, MirrorRemoveResult, MirrorView, MirrorsService } from "@llmgw/api";
import { ServiceError } from "@llmgw/api";
import {
  messageOf,
  mirrorFileUrl,
  mirrorOrder,
  mirrorPathOf,
  mirrorPathsInCatalog,
  hubReposInCatalog,
  type MirrorAddress,
  type MirrorSetting,
  type ModelDefinition,
} from "@llmgw/domain";
import { request, type Agent } from "undici";
import { createGuardedAgent } from "../outbound/guarded-agent";
import { holdsHubRepo, hubUsersOf } from "./hub-holdings";
import type { S3Access } from "./mirror-config";
import { lookAtS3 } from "./s3-holdings";
import { S3Store } from "./s3-store";

/** A check that takes longer than this counts as failed, whatever the interval. */
const CHECK_TIMEOUT_MAX_MS = 3_000;
const DELETE_TIMEOUT_MS = 30_000;
/** More files than any catalog loads from mirrors; past it, holdings are not looked up. */
const FILES_LOOKED_UP_MAX = 500;

export interface MirrorState {
  setting: MirrorSetting;
  isUp: boolean | undefined;
  checkedAtMs: number | null;
  latencyMs: number | null;
  lastError: string | null;
  /** Path (or `hf:ORG/NAME`) → whether the mirror held it, as last looked. */
  holds: Map<string, boolean>;
  /** An S3 store: how the server reaches it, and the URLs last signed for nodes. */
  s3?: { store: S3Store; signedUrls: Record<string, string>; expiresUnixMs: number };
}

export interface MirrorMonitorDeps {
  list: readonly MirrorSetting[];
  checkIntervalMs: number;
  /** The S3 stores' endpoints and keys, by mirror name (none: no S3 mirror). */
  s3?: ReadonlyMap<string, S3Access>;
  /** How long a URL signed for a node stays good (default 900 s). */
  signedUrlSeconds?: number;
  /** The catalog's models, read at each check and each removal. */
  models(): readonly ModelDefinition[];
  audit(actor: Actor, action: string, target: string): Promise<void>;
  nowMs(): number;
  log(line: string): void;
}

export class MirrorMonitor implements MirrorsService {
  private readonly agent: Agent;
  private readonly states: MirrorState[];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: MirrorMonitorDeps) {
    // Mirrors are on the company's network: private addresses may be reached, metadata never.
    this.agent = createGuardedAgent({ allowPrivate: true, who: "mirrors" });
    this.states = deps.list.map((setting) => {
      const access = deps.s3?.get(setting.name);
      const io = { agent: this.agent, nowMs: deps.nowMs };
      const store =
        setting.s3 && access ? new S3Store(setting.name, setting.s3, access, io) : undefined;
      return {
        setting,
        isUp: undefined,
        checkedAtMs: null,
        latencyMs: null,
        lastError: null,
        holds: new Map(),
        ...(store && { s3: { store, signedUrls: {}, expiresUnixMs: 0 } }),
      };
    });
  }

  /** Looks again now (the catalog changed): an S3 store's URLs are signed for new models. */
  refresh(): void {
    if (this.states.length > 0) void this.checkAll();
  }

  start(): void {
    if (this.states.length === 0) return;
    this.timer = setInterval(() => void this.checkAll(), this.deps.checkIntervalMs);
    this.timer.unref();
    void this.checkAll();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.agent.close();
  }

  /**
   * The mirrors in the order a node should try them now; an S3 store with the URLs last signed
   * for the catalog's files (nodes never get its keys).
   */
  order(): MirrorAddress[] {
    const byName = new Map(this.states.map((state) => [state.setting.name, state]));
    const ordered = mirrorOrder(this.deps.list, (name) => {
      const isUp = byName.get(name)?.isUp;
      return isUp === undefined ? undefined : isUp ? "up" : "down";
    });
    return ordered.map((setting) => {
      const s3 = byName.get(setting.name)?.s3;
      if (!s3) return { name: setting.name, baseUrl: setting.baseUrl };
      const { signedUrls, expiresUnixMs } = s3;
      return { name: setting.name, baseUrl: "", signedUrls, expiresUnixMs };
    });
  }

  liveStates(): readonly MirrorState[] {
    return this.states;
  }

  async list(): Promise<MirrorView[]> {
    const users = catalogFiles(this.deps.models());
    return this.states.map((state, index) => ({
      name: state.setting.name,
      baseUrl: state.s3?.store.address() ?? state.setting.baseUrl,
      isPrimary: index === 0,
      state: state.isUp === undefined ? "unknown" : state.isUp ? "up" : "down",
      checkedAt: state.checkedAtMs === null ? null : new Date(state.checkedAtMs).toISOString(),
      latencyMs: state.latencyMs,
      lastError: state.lastError,
      files: [...users].map(([path, models]) => ({
        path,
        models,
        isHeld: state.holds.get(path) ?? null,
      })),
    }));
  }

  async remove(mirror: string, path: string, actor: Actor): Promise<MirrorRemoveResult> {
    const state = this.states.find((candidate) => candidate.setting.name === mirror);
    if (!state) throw mirrorNotFound(mirror, this.deps.list);
    const filePath = mirrorPathOf(`mirror:${path.replace(/^mirror:/, "")}`);
    if (filePath === undefined || path.includes("#"))
      throw new ServiceError(
        "invalid",
        `"${path}" is not a path on a mirror; give it as a mirror:PATH source names it (org/model/file.safetensors)`,
        { code: "mirror.path_invalid", params: { path } },
      );
    const models =
      mirrorPathsInCatalog(this.deps.models()).get(filePath) ??
      hubUsersOf(filePath, this.deps.models());
    if (models !== undefined)
      throw new ServiceError(
        "conflict",
        `${filePath} on mirror ${mirror} is loaded by ${models.join(", ")}; remove it from the catalog (or point it elsewhere) first`,
        {
          code: "mirror.file_in_use",
          params: { mirror, path: filePath, models: models.join(", ") },
        },
      );
    await this.deleteFile(state, filePath);
    await this.deps.audit(actor, "mirror.remove", `${mirror}:${filePath}`);
    state.holds.delete(filePath);
    return { mirror, path: filePath };
  }

  private async deleteFile(state: MirrorState, filePath: string): Promise<void> {
    const mirror = state.setting.name;
    const failed = (reason: string) =>
      new ServiceError(
        "unavailable",
        `removing ${filePath} from mirror ${mirror} failed: ${reason}`,
        { code: "mirror.delete_failed", params: { mirror, path: filePath, reason } },
      );
    let status: number;
    try {
      status = state.s3
        ? await this.deleteFromS3(state.s3.store, filePath)
        : await this.deleteOverHttp(state.setting.baseUrl, filePath);
    } catch (error) {
      throw failed(`it did not answer (${messageOf(error)})`);
    }
    if (status === 405 || status === 501 || status === 403)
      throw new ServiceError(
        "conflict",
        `mirror ${mirror} does not delete files (it answered HTTP ${status} to DELETE); remove the file on the mirror itself`,
        { code: "mirror.cannot_delete", params: { mirror, status } },
      );
    if (status === 404) throw failed("it does not hold the file (HTTP 404)");
    if (status < 200 || status >= 300) throw failed(`it answered HTTP ${status}`);
  }

  private async deleteOverHttp(baseUrl: string, filePath: string): Promise<number> {
    const answer = await request(mirrorFileUrl(baseUrl, filePath), {
      method: "DELETE",
      dispatcher: this.agent,
      signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
    });
    await answer.body.dump();
    return answer.statusCode;
  }

  /** S3 answers DELETE of a missing key with 204, so a HEAD first says whether it holds it. */
  private async deleteFromS3(store: S3Store, filePath: string): Promise<number> {
    const held = await store.head(filePath, DELETE_TIMEOUT_MS);
    if (held.status !== 200) return held.status;
    return (await store.delete(filePath, DELETE_TIMEOUT_MS)).status;
  }

  private async checkAll(): Promise<void> {
    const paths = [...catalogFiles(this.deps.models()).keys()];
    await Promise.all(this.states.map((state) => this.check(state, paths)));
  }

  /** One timed HEAD of the mirror's base URL; while it answers, the catalog's files on it. */
  private async check(state: MirrorState, paths: readonly string[]): Promise<void> {
    const startedMs = this.deps.nowMs();
    const failure = await this.answers(state).catch(
      (error: unknown) => `it did not answer within ${this.timeoutMs()} ms: ${messageOf(error)}`,
    );
    const wasUp = state.isUp;
    state.isUp = failure === null;
    state.checkedAtMs = this.deps.nowMs();
    state.latencyMs = state.checkedAtMs - startedMs;
    state.lastError = failure;
    if (wasUp !== state.isUp && (wasUp !== undefined || failure !== null))
      this.deps.log(
        `mirrors: ${state.setting.name} ${failure === null ? "answers again" : `is down: ${failure}`}`,
      );
    if (failure === null) await this.lookUpFiles(state, paths);
  }

  /** null when the mirror answers; else why not. An S3 store must also take the keys. */
  private async answers(state: MirrorState): Promise<string | null> {
    if (state.s3) {
      const answer = await state.s3.store.check(this.timeoutMs());
      return answer.status === 200
        ? null
        : `its bucket answered ${state.s3.store.describe(answer)}`;
    }
    const status = await this.head(state.setting.baseUrl);
    return status < 500 ? null : `its ${state.setting.baseUrl} answered HTTP ${status}`;
  }

  private async lookUpFiles(state: MirrorState, paths: readonly string[]): Promise<void> {
    if (state.s3) {
      const options = {
        timeoutMs: this.timeoutMs(),
        signedUrlSeconds: this.deps.signedUrlSeconds ?? 900,
        nowMs: this.deps.nowMs(),
      };
      const look = await lookAtS3(state.s3.store, paths.slice(0, FILES_LOOKED_UP_MAX), options);
      state.holds = look.holds;
      state.s3.signedUrls = look.signedUrls;
      state.s3.expiresUnixMs = look.expiresUnixMs;
      return;
    }
    const holds = new Map<string, boolean>();
    for (const path of paths.slice(0, FILES_LOOKED_UP_MAX)) {
      if (path.startsWith("hf:")) {
        const lookup = { agent: this.agent, timeoutMs: this.timeoutMs(), head: this.headOr0 };
        holds.set(path, await holdsHubRepo(state.setting.baseUrl, path, lookup).catch(() => false));
        continue;
      }
      holds.set(path, (await this.headOr0(mirrorFileUrl(state.setting.baseUrl, path))) === 200);
    }
    state.holds = holds;
  }

  private readonly headOr0 = (url: string): Promise<number> => this.head(url).catch(() => 0);

  private async head(url: string): Promise<number> {
    const answer = await request(url, {
      method: "HEAD",
      dispatcher: this.agent,
      signal: AbortSignal.timeout(this.timeoutMs()),
    });
    await answer.body.dump();
    return answer.statusCode;
  }

  private timeoutMs(): number {
    return Math.min(this.deps.checkIntervalMs, CHECK_TIMEOUT_MAX_MS);
  }
}

/** The catalog's mirror paths and hub repositories (`hf:ORG/NAME`), with the models loading each. */
function catalogFiles(models: readonly ModelDefinition[]): Map<string, string[]> {
  return new Map([...mirrorPathsInCatalog(models), ...hubReposInCatalog(models)]);
}

function mirrorNotFound(mirror: string, list: readonly MirrorSetting[]): ServiceError {
  const mirrors = list.length === 0 ? "none" : list.map((setting) => setting.name).join(", ");
  return new ServiceError(
    "not_found",
    `no mirror named "${mirror}"; the server's mirrors are: ${mirrors} (LLMGW_MIRRORS)`,
    { code: "mirror.not_found", params: { mirror, mirrors } },
  );
}
