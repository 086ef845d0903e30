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
  type MirrorSetting,
  type ModelDefinition,
} from "@llmgw/domain";
import { request, type Agent } from "undici";
import { createGuardedAgent } from "../outbound/guarded-agent";
import { holdsHubRepo, hubUsersOf } from "./hub-holdings";

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
}

export interface MirrorMonitorDeps {
  list: readonly MirrorSetting[];
  checkIntervalMs: number;
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
    this.states = deps.list.map((setting) => ({
      setting,
      isUp: undefined,
      checkedAtMs: null,
      latencyMs: null,
      lastError: null,
      holds: new Map(),
    }));
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

  /** The mirrors in the order a node should try them now. */
  order(): MirrorSetting[] {
    const byName = new Map(this.states.map((state) => [state.setting.name, state]));
    return mirrorOrder(this.deps.list, (name) => {
      const isUp = byName.get(name)?.isUp;
      return isUp === undefined ? undefined : isUp ? "up" : "down";
    });
  }

  liveStates(): readonly MirrorState[] {
    return this.states;
  }

  async list(): Promise<MirrorView[]> {
    const users = catalogFiles(this.deps.models());
    return this.states.map((state, index) => ({
      name: state.setting.name,
      baseUrl: state.setting.baseUrl,
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
      const answer = await request(mirrorFileUrl(state.setting.baseUrl, filePath), {
        method: "DELETE",
        dispatcher: this.agent,
        signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
      });
      await answer.body.dump();
      status = answer.statusCode;
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

  private async checkAll(): Promise<void> {
    const paths = [...catalogFiles(this.deps.models()).keys()];
    await Promise.all(this.states.map((state) => this.check(state, paths)));
  }

  /** One timed HEAD of the mirror's base URL; while it answers, the catalog's files on it. */
  private async check(state: MirrorState, paths: readonly string[]): Promise<void> {
    const startedMs = this.deps.nowMs();
    const failure = await this.head(state.setting.baseUrl).then(
      (status) => (status < 500 ? null : `its ${state.setting.baseUrl} answered HTTP ${status}`),
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

  private async lookUpFiles(state: MirrorState, paths: readonly string[]): Promise<void> {
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
