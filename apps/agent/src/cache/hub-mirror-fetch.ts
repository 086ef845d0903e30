// A Hugging Face id fetched from the mirrors (docs/mirrors.md): the repository's file list from
// the first mirror that serves it, then every file it lists, each checked against the list's
// sha256 as it arrives, into a staging directory renamed into place only once all are whole. A
// mirror that does not answer, lacks a file, breaks off or sends a file not matching its list is
// passed over for the next; what it sent is removed. Pickle files are left out unless allowed.
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import {
  HUB_LIST_MAX_BYTES,
  hubFilePath,
  hubListPath,
  messageOf,
  mirrorUrlOf,
  parseHubFileList,
  pickleExtension,
  type HubFile,
  type MirrorAddress,
} from "@llmgw/domain";
import { downloadFile, WeightFetchError, type DownloadRequest } from "./download-file";
import { notSigned, refusalOf } from "./mirror-fetch";
import { PARTIAL_PREFIX } from "./layout";

const LIST_TIMEOUT_MS = 15_000;
/** The directory inside the cache entry holding the repository's files. */
const HUB_REPO_DIR = "repo";

type Common = Omit<
  DownloadRequest,
  "url" | "what" | "file" | "expectedSha256" | "expectedFrom" | "describeRefusal"
>;

export interface HubFetched {
  /** The engine's model, relative to the entry: the repository, or its one GGUF file. */
  file: string;
  receivedBytes: number;
  files: number;
  from: string;
}

/** No mirror holds the repository at all (each answered 404 for its list). */
export class HubRepoNotOnMirrors extends WeightFetchError {}

class NotHeld extends Error {}

async function fileList(mirror: MirrorAddress, repo: string, common: Common): Promise<HubFile[]> {
  const signals = [AbortSignal.timeout(LIST_TIMEOUT_MS)];
  if (common.signal) signals.push(common.signal);
  const listPath = hubListPath(repo);
  const url = mirrorUrlOf(mirror, listPath);
  if (url === undefined) throw new Error(notSigned(mirror, listPath));
  const response = await common.fetchImpl(url, { signal: AbortSignal.any(signals) });
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined);
    throw new NotHeld(`it does not hold hf:${repo} (HTTP 404 for ${listPath})`);
  }
  if (!response.ok) throw new Error(`its ${listPath} answered HTTP ${response.status}`);
  const text = await response.text();
  if (text.length > HUB_LIST_MAX_BYTES) throw new Error(`its ${listPath} is too large for a list`);
  const parsed = parseHubFileList(text);
  if ("error" in parsed) throw new Error(`its ${listPath} is not a file list: ${parsed.error}`);
  return parsed.files;
}

/** The one GGUF (or the first part of a split one) when the repository holds GGUF files. */
function modelFileOf(files: readonly HubFile[]): string {
  const ggufs = files.map((file) => file.path).filter((file) => file.endsWith(".gguf"));
  const first =
    ggufs.length === 1 ? ggufs[0] : ggufs.find((file) => /-00001-of-\d+\.gguf$/.test(file));
  return first === undefined ? HUB_REPO_DIR : `${HUB_REPO_DIR}/${first}`;
}

async function fetchFromOne(
  mirror: MirrorAddress,
  repo: string,
  files: readonly HubFile[],
  staging: string,
  common: Common,
): Promise<number> {
  const knownTotal = files.every((file) => file.sizeBytes !== undefined)
    ? files.reduce((sum, file) => sum + (file.sizeBytes ?? 0), 0)
    : undefined;
  let before = 0;
  for (const file of files) {
    const target = path.join(staging, file.path);
    const url = mirrorUrlOf(mirror, hubFilePath(repo, file.path));
    if (url === undefined)
      throw new Error(`${file.path} of hf:${repo}: ${notSigned(mirror, file.path)}`);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const downloaded = await downloadFile({
      ...common,
      entryDir: path.dirname(target),
      onProgress: (progress) =>
        common.onProgress?.({
          receivedBytes: before + progress.receivedBytes,
          totalBytes: knownTotal,
        }),
      url,
      describeRefusal: refusalOf(mirror),
      what: `${file.path} of hf:${repo} on mirror ${mirror.name}`,
      file: path.basename(target),
      expectedSha256: file.sha256,
      expectedFrom: `the mirror's file list (${hubListPath(repo)})`,
    });
    if (file.sizeBytes !== undefined && downloaded.receivedBytes !== file.sizeBytes)
      throw new WeightFetchError(
        `${file.path} of hf:${repo} on mirror ${mirror.name}: ${downloaded.receivedBytes} bytes, but the list says ${file.sizeBytes}`,
      );
    before += downloaded.receivedBytes;
  }
  return before;
}

export async function fetchHubFromMirrors(
  repo: string,
  mirrors: readonly MirrorAddress[],
  common: Common,
): Promise<HubFetched> {
  const failures: string[] = [];
  let notHeld = 0;
  for (const mirror of mirrors) {
    const staging = path.join(
      common.entryDir,
      `${PARTIAL_PREFIX}${randomBytes(4).toString("hex")}`,
    );
    try {
      const listed = await fileList(mirror, repo, common);
      const files = listed.filter((file) => common.allowPickle || !pickleExtension(file.path));
      if (files.length === 0)
        throw new Error(
          `it lists only pickle files (${listed[0]?.path ?? ""}, …); set allow_pickle on the model if you trust them`,
        );
      const receivedBytes = await fetchFromOne(mirror, repo, files, staging, common);
      const target = path.join(common.entryDir, HUB_REPO_DIR);
      await rm(target, { recursive: true, force: true });
      await rename(staging, target);
      return {
        file: modelFileOf(files),
        receivedBytes,
        files: files.length,
        from: `mirror ${mirror.name}`,
      };
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      // A replica being stopped stops the fetch; it is not a mirror failing.
      if (common.signal?.aborted) throw error;
      if (error instanceof NotHeld) notHeld += 1;
      failures.push(`${mirror.name}: ${messageOf(error)}`);
    }
  }
  const message = `no mirror served hf:${repo} whole (${failures.join("; ")})`;
  throw notHeld === mirrors.length
    ? new HubRepoNotOnMirrors(message)
    : new WeightFetchError(message);
}
