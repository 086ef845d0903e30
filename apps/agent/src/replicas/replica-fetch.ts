// A replica's FETCHING phase: its weights and adapters into the node's cache, with a watchdog that
// aborts a download that makes no progress for the start timeout (progress, not total time, so a
// 400 GB download is not cut off by a timeout meant for an engine's warm-up).
import { messageOf, type MirrorAddress } from "@llmgw/domain";
import type { LaunchAdapter } from "@llmgw/engines";
import type { MirrorAddress as MirrorFrame, StartReplica } from "@llmgw/proto";
import type { ResolvedWeights } from "../cache/fetch";
import type { LaunchPlan } from "./launch-plan";
import { standInWeights, type ReplicaDeps } from "./replica-deps";

export async function fetchWatched(options: {
  deps: ReplicaDeps;
  spec: StartReplica;
  plan: LaunchPlan;
  source: string;
  abort: AbortController;
  startTimeoutMs: number;
  lastProgressAtMs: () => number;
  isStopping: () => boolean;
  onProgress: (receivedBytes: number, totalBytes: number | undefined) => void;
}): Promise<ResolvedWeights> {
  const { deps, spec, abort, startTimeoutMs } = options;
  const watchdog = setInterval(() => {
    if (deps.nowMs() - options.lastProgressAtMs() > startTimeoutMs) {
      abort.abort(
        new Error(
          `no download progress for ${Math.round(startTimeoutMs / 1000)} s (start timeout)`,
        ),
      );
    }
  }, deps.healthPollMs);
  try {
    return await deps.weights.resolve(options.source, {
      allowPickle: spec.allowPickle,
      isSimulator: options.plan.adapter.name === "sim",
      mirrors: spec.mirrors.map(mirrorAddressOf),
      signal: abort.signal,
      onProgress: (progress) => options.onProgress(progress.receivedBytes, progress.totalBytes),
    });
  } catch (error) {
    const reason = abort.signal.reason as Error | undefined;
    throw new Error(
      reason !== undefined && !options.isStopping()
        ? `fetch stalled: ${reason.message}`
        : messageOf(error),
    );
  } finally {
    clearInterval(watchdog);
  }
}

/** Each adapter into the same cache as the weights, held to the same pickle rule. */
export async function fetchAdapters(
  spec: StartReplica,
  plan: LaunchPlan,
  fetchWeights: (source: string) => Promise<ResolvedWeights>,
): Promise<LaunchAdapter[]> {
  const fetched: LaunchAdapter[] = [];
  for (const adapter of spec.adapters) {
    const where =
      plan.standIn === ""
        ? await fetchWeights(adapter.source).catch((error: unknown) => {
            throw new Error(`adapter "${adapter.name}": ${messageOf(error)}`);
          })
        : standInWeights(adapter.source);
    fetched.push({
      name: adapter.name,
      path: where.modelPath,
      ...(adapter.rank > 0 ? { rank: adapter.rank } : {}),
    });
  }
  return fetched;
}

/**
 * A mirror as the server sent it: an empty base URL is an S3 store, reached only through the URLs
 * the server signed per file (a path without one is one it does not serve).
 */
function mirrorAddressOf(frame: MirrorFrame): MirrorAddress {
  if (frame.baseUrl !== "") return { name: frame.name, baseUrl: frame.baseUrl };
  return {
    name: frame.name,
    baseUrl: "",
    signedUrls: frame.signedUrls,
    expiresUnixMs: Number(frame.expiresUnixMs),
  };
}
