// Turns a model source into a path an engine can load, fetching into the weight cache when the
// source is remote. Local sources (absolute paths, file:// URLs) are referenced in place and never
// copied: they are the operator's files, often hundreds of gigabytes, and a copy would double the
// disk they take while reclaim could never remove either. Hub ids are fetched from the mirrors when
// the control plane names any (hub-mirror-fetch.ts); otherwise they need a route to the hub, which
// most GPU nodes do not have, so without one configured the fetch fails and says how to mirror.
import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { hubRepoOf, sourceKind, type MirrorAddress } from "@llmgw/domain";
import {
  checkPickle,
  describeSource,
  downloadFile,
  WeightFetchError,
  type FetchProgress,
} from "./download-file";
import {
  cacheDirOf,
  cacheName,
  MANIFEST_FILE,
  readManifest,
  safeFileName,
  writeFileAtomic,
} from "./layout";
import { fetchHubFromMirrors, HubRepoNotOnMirrors } from "./hub-mirror-fetch";
import { fetchFromMirrors, isCachedCopyIntact } from "./mirror-fetch";
import { SourceConfigs } from "./source-config";

export type { FetchProgress } from "./download-file";

export interface ResolveOptions {
  allowPickle: boolean;
  onProgress?: (progress: FetchProgress) => void;
  signal?: AbortSignal;
  /** The simulator loads no weights, so a hub id is passed through without a route to the hub. */
  isSimulator?: boolean;
  /** Where a mirror:PATH source or a hub id is fetched from, in the order to try (StartReplica.mirrors). */
  mirrors?: readonly MirrorAddress[];
}

export interface ResolvedWeights {
  /** What the engine is given as its model: a local file or directory, or a hub id. */
  modelPath: string;
  cacheName: string | undefined;
  /** A sentence for the replica's status: where the weights came from. */
  note: string;
}

export interface WeightCacheOptions {
  dataDir: string;
  /** Base URL of a Hugging Face hub (or mirror) this node may reach; absent: none. */
  hubUrl?: string | undefined;
  fetchImpl?: typeof fetch;
  nowMs?: () => number;
  /** Where a config.json that could not be read for sizing is said. */
  log?: (line: string) => void;
}

export class WeightCache {
  readonly cacheDir: string;
  /** The config.json of each source resolved here, reported for sizing. */
  readonly configs: SourceConfigs;
  private readonly inFlight = new Map<string, Promise<ResolvedWeights>>();
  private readonly fetchImpl: typeof fetch;
  private readonly nowMs: () => number;

  constructor(private readonly options: WeightCacheOptions) {
    this.cacheDir = cacheDirOf(options.dataDir);
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.nowMs = options.nowMs ?? Date.now;
    this.configs = new SourceConfigs(options.log);
  }

  /** Cache names with a download under way; reclaim leaves them alone. */
  get fetching(): ReadonlySet<string> {
    return new Set(this.inFlight.keys());
  }

  /** The weights' path, with the source's config.json read for sizing when it has one. */
  async resolve(source: string, options: ResolveOptions): Promise<ResolvedWeights> {
    const resolved = await this.resolveWeights(source, options);
    await this.configs.note(source, resolved.modelPath);
    return resolved;
  }

  private async resolveWeights(source: string, options: ResolveOptions): Promise<ResolvedWeights> {
    checkPickle(source, options.allowPickle);
    const kind = sourceKind(source);
    if (kind === "file") return resolveLocal(source, options.isSimulator === true);
    if (kind === "hub") return this.resolveHubId(source, options);
    if (kind === "url" || kind === "mirror") return this.download(source, options);
    throw new WeightFetchError(
      `source "${source}" is not a Hugging Face id, an http(s):// URL, a file:// URL or an absolute path`,
    );
  }

  /**
   * A hub id is fetched from the mirrors when the control plane named any; when none of them
   * holds the repository, or none is named, the engine loads it from the hub (or the simulator
   * loads nothing).
   */
  private async resolveHubId(source: string, options: ResolveOptions): Promise<ResolvedWeights> {
    if ((options.mirrors ?? []).length === 0) return this.resolveHub(source, options, "");
    try {
      return await this.download(source, options);
    } catch (error) {
      if (!(error instanceof HubRepoNotOnMirrors)) throw error;
      if (options.isSimulator !== true && this.options.hubUrl === undefined) throw error;
      return this.resolveHub(source, options, ` (${error.message})`);
    }
  }

  private resolveHub(source: string, options: ResolveOptions, why: string): ResolvedWeights {
    const id = source.replace(/^hf:/, "");
    if (options.isSimulator)
      return {
        modelPath: id,
        cacheName: undefined,
        note: `hub id ${id} not fetched: the simulator loads no weights${why}`,
      };
    if (this.options.hubUrl === undefined) {
      throw new WeightFetchError(
        `source ${id} is a Hugging Face id and this node has no route to the hub; ` +
          `mirror the files on an http(s):// server or a shared path and use that as the source, or start the agent with --hub-url`,
      );
    }
    // The engine downloads a hub id itself (vLLM and SGLang with --load-format safetensors).
    return {
      modelPath: id,
      cacheName: undefined,
      note: `hub id ${id} loaded by the engine from ${this.options.hubUrl}${why}`,
    };
  }

  private async download(source: string, options: ResolveOptions): Promise<ResolvedWeights> {
    const name = cacheName(source);
    const entryDir = path.join(this.cacheDir, name);
    const manifest = await readManifest(entryDir);
    if (
      manifest !== undefined &&
      manifest.source === source &&
      (await isPresent(path.join(entryDir, manifest.file))) &&
      (await isCachedCopyIntact(entryDir, manifest, this.options.log))
    ) {
      return {
        modelPath: path.join(entryDir, manifest.file),
        cacheName: name,
        note: `weights from cache ${name}`,
      };
    }
    const running = this.inFlight.get(name);
    if (running !== undefined) return running;
    const promise = this.downloadInto(source, entryDir, options).finally(() =>
      this.inFlight.delete(name),
    );
    this.inFlight.set(name, promise);
    return promise;
  }

  private async downloadInto(
    source: string,
    entryDir: string,
    options: ResolveOptions,
  ): Promise<ResolvedWeights> {
    await mkdir(entryDir, { recursive: true, mode: 0o700 });
    const common = {
      entryDir,
      allowPickle: options.allowPickle,
      fetchImpl: this.fetchImpl,
      onProgress: options.onProgress,
      signal: options.signal,
    };
    let fetched: { file: string; receivedBytes: number; sha256?: string; from: string };
    const repo = hubRepoOf(source);
    if (repo !== undefined) {
      const hub = await fetchHubFromMirrors(repo, options.mirrors ?? [], common);
      fetched = { ...hub, from: `${hub.from} (${hub.files} files of hf:${repo})` };
    } else if (sourceKind(source) === "mirror") {
      fetched = await fetchFromMirrors(source, options.mirrors ?? [], common);
    } else {
      const file = fileNameFor(source);
      const what = describeSource(source);
      const downloaded = await downloadFile({ ...common, url: source, what, file });
      fetched = { ...downloaded, file, from: what };
    }
    const manifest = {
      source,
      file: fetched.file,
      sizeBytes: fetched.receivedBytes,
      ...(fetched.sha256 === undefined ? {} : { sha256: fetched.sha256 }),
      fetchedByAgent: true,
      fetchedAtMs: this.nowMs(),
    };
    await writeFileAtomic(
      path.join(entryDir, MANIFEST_FILE),
      JSON.stringify(manifest, null, 2) + "\n",
    );
    return {
      modelPath: path.join(entryDir, fetched.file),
      cacheName: path.basename(entryDir),
      note: `fetched ${fetched.receivedBytes} bytes from ${fetched.from} into cache ${path.basename(entryDir)}`,
    };
  }
}

async function resolveLocal(source: string, isSimulator: boolean): Promise<ResolvedWeights> {
  const local = source.startsWith("file:") ? fileURLToPath(source) : source;
  try {
    await stat(local);
  } catch {
    // The simulator loads no weights: a path that exists only on real nodes is no reason to fail.
    if (isSimulator)
      return {
        modelPath: local,
        cacheName: undefined,
        note: `${local} not read: the simulator loads no weights`,
      };
    throw new WeightFetchError(
      `source ${local} does not exist on this node; copy the weights there or use an http(s):// source`,
    );
  }
  return {
    modelPath: local,
    cacheName: undefined,
    note: `weights referenced in place at ${local}`,
  };
}

/** The URL's last path segment, made safe as a file name. */
function fileNameFor(source: string): string {
  return safeFileName(decodeURIComponent(new URL(source).pathname.split("/").pop() ?? ""));
}

/** A fetched file, or the directory a hub repository was fetched into. */
async function isPresent(file: string): Promise<boolean> {
  try {
    const info = await stat(file);
    return info.isFile() || info.isDirectory();
  } catch {
    return false;
  }
}
