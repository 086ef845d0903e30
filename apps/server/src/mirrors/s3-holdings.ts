// What an S3 mirror holds for the catalog, and the URLs nodes are sent for it (docs/mirrors.md).
// The server looks with its own signed requests (HEAD of each file; for a hub id, a GET of the
// repository's list and a HEAD of every file it lists) and signs a GET URL for each path a node
// may read: a mirror:PATH file and PATH.sha256, a hub repository's list and each listed file.
import {
  HUB_LIST_MAX_BYTES,
  hubFilePath,
  hubListPath,
  hubRepoOf,
  parseHubFileList,
} from "@llmgw/domain";
import type { S3Store } from "./s3-store";

/** More files than a model repository holds; past it, the rest are not looked up. */
const FILES_PER_REPO_MAX = 200;

export interface S3Look {
  /** Path (or `hf:ORG/NAME`) → whether the store held it. */
  holds: Map<string, boolean>;
  /** Path → the GET URL signed for nodes. */
  signedUrls: Record<string, string>;
  expiresUnixMs: number;
}

export interface S3LookOptions {
  timeoutMs: number;
  signedUrlSeconds: number;
  nowMs: number;
}

const isOk = (status: Promise<{ status: number }>) =>
  status.then((answer) => answer.status === 200).catch(() => false);

async function lookAtRepo(
  store: S3Store,
  key: string,
  options: S3LookOptions,
  sign: (path: string) => Promise<void>,
): Promise<boolean> {
  const repo = hubRepoOf(key);
  if (repo === undefined) return false;
  const listPath = hubListPath(repo);
  await sign(listPath);
  const list = await store.get(listPath, options.timeoutMs).catch(() => undefined);
  if (list?.status !== 200 || list.text.length > HUB_LIST_MAX_BYTES) return false;
  const parsed = parseHubFileList(list.text);
  if ("error" in parsed) return false;
  let isWhole = true;
  for (const file of parsed.files.slice(0, FILES_PER_REPO_MAX)) {
    const path = hubFilePath(repo, file.path);
    await sign(path);
    if (isWhole) isWhole = await isOk(store.head(path, options.timeoutMs));
  }
  return isWhole;
}

/** The store's holdings of the catalog's `paths` and the URLs signed for them. */
export async function lookAtS3(
  store: S3Store,
  paths: readonly string[],
  options: S3LookOptions,
): Promise<S3Look> {
  const holds = new Map<string, boolean>();
  const signedUrls: Record<string, string> = {};
  const sign = async (path: string) => {
    signedUrls[path] = await store.presignGet(path, options.signedUrlSeconds);
  };
  for (const path of paths) {
    if (path.startsWith("hf:")) {
      holds.set(path, await lookAtRepo(store, path, options, sign));
      continue;
    }
    await sign(path);
    await sign(`${path}.sha256`);
    holds.set(path, await isOk(store.head(path, options.timeoutMs)));
  }
  return { holds, signedUrls, expiresUnixMs: options.nowMs + options.signedUrlSeconds * 1_000 };
}
