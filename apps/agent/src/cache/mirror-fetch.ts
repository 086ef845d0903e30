// A mirror:PATH source (docs/mirrors.md): fetched from the first mirror the control plane listed
// that serves it whole, moving to the next when one does not answer, fails mid-download or sends
// a file whose sha256 is not the one expected. The expected checksum is the one the source names
// (`#sha256=`), else the one the mirror publishes beside the file (`FILE.sha256`), else none.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import {
  messageOf,
  mirrorPathOf,
  mirrorUrlOf,
  s3Refusal,
  sourceKind,
  sourceSha256Of,
  type MirrorAddress,
} from "@llmgw/domain";
import { downloadFile, WeightFetchError, type DownloadRequest } from "./download-file";
import { safeFileName, type CacheManifest } from "./layout";

/** A published checksum is a few bytes; a mirror that answers more is not publishing one. */
const SHA256_FILE_MAX_BYTES = 4_096;
const SHA256_FILE_TIMEOUT_MS = 15_000;

type Common = Omit<
  DownloadRequest,
  "url" | "what" | "file" | "expectedSha256" | "expectedFrom" | "describeRefusal"
>;

export interface MirrorFetched {
  file: string;
  receivedBytes: number;
  sha256: string;
  /** Which mirror served it, for the replica's message. */
  from: string;
}

/**
 * The checksum the mirror publishes at `PATH.sha256` (sha256sum's format); undefined on 404, or
 * when an S3 store's server signed no URL for it. `name` is how messages name it: the URL may
 * carry a signature, which no message shows.
 */
async function publishedSha256(
  url: string | undefined,
  name: string,
  common: Common,
): Promise<string | undefined> {
  if (url === undefined) return undefined;
  const signals = [AbortSignal.timeout(SHA256_FILE_TIMEOUT_MS)];
  if (common.signal) signals.push(common.signal);
  const response = await common.fetchImpl(url, { signal: AbortSignal.any(signals) });
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.ok) throw new Error(`its ${name} answered HTTP ${response.status}`);
  const text = (await response.text()).slice(0, SHA256_FILE_MAX_BYTES).trim();
  const match = /^([0-9a-fA-F]{64})(?:\s|$)/.exec(text);
  if (!match?.[1]) throw new Error(`its ${name} holds no sha256`);
  return match[1].toLowerCase();
}

/** Why an S3 store is passed over for a path its server signed no URL for. */
export function notSigned(mirror: MirrorAddress, filePath: string): string {
  return mirror.signedUrls === undefined
    ? `it gave no address (an S3 store, which this agent version cannot read; upgrade the agent)`
    : `it does not serve ${filePath}: the server signed no URL for it (the store lacked it, or did not answer, at the server's last look)`;
}

/** An S3 store's refusal names its code and what to check; others, their status. */
export function refusalOf(mirror: MirrorAddress) {
  return mirror.signedUrls === undefined
    ? undefined
    : (status: number, code: string | undefined) => s3Refusal(mirror.name, status, code);
}

async function fetchFromOne(
  mirror: MirrorAddress,
  filePath: string,
  named: string | undefined,
  common: Common,
): Promise<MirrorFetched> {
  const url = mirrorUrlOf(mirror, filePath);
  if (url === undefined) throw new Error(notSigned(mirror, filePath));
  const file = safeFileName(path.posix.basename(filePath));
  const shaUrl = mirrorUrlOf(mirror, `${filePath}.sha256`);
  const published =
    named === undefined ? await publishedSha256(shaUrl, `${file}.sha256`, common) : undefined;
  const what = `${filePath} on mirror ${mirror.name}`;
  const downloaded = await downloadFile({
    ...common,
    url,
    what,
    file,
    expectedSha256: named ?? published,
    expectedFrom: named !== undefined ? "the source" : `the mirror's ${file}.sha256`,
    describeRefusal: refusalOf(mirror),
  });
  return { ...downloaded, file, from: `mirror ${mirror.name}` };
}

export async function fetchFromMirrors(
  source: string,
  mirrors: readonly MirrorAddress[],
  common: Common,
): Promise<MirrorFetched> {
  const filePath = mirrorPathOf(source);
  if (filePath === undefined) throw new WeightFetchError(`source "${source}" is not a mirror path`);
  if (mirrors.length === 0)
    throw new WeightFetchError(
      `source ${source} is a file on the mirrors and the control plane named no mirror; set LLMGW_MIRRORS on the server (docs/mirrors.md)`,
    );
  const named = sourceSha256Of(source);
  const failures: string[] = [];
  for (const mirror of mirrors) {
    try {
      return await fetchFromOne(mirror, filePath, named, common);
    } catch (error) {
      // A replica being stopped stops the fetch; it is not a mirror failing.
      if (common.signal?.aborted) throw error;
      failures.push(`${mirror.name}: ${messageOf(error)}`);
    }
  }
  throw new WeightFetchError(`no mirror served ${filePath} whole (${failures.join("; ")})`);
}

/**
 * A copy fetched from a mirror is hashed again before it is used, not trusted for having been
 * fetched once: a file changed on disk since is fetched again. Other sources are taken as they are.
 */
export async function isCachedCopyIntact(
  entryDir: string,
  manifest: CacheManifest,
  log: (line: string) => void = () => undefined,
): Promise<boolean> {
  if (sourceKind(manifest.source) !== "mirror") return true;
  if (manifest.sha256 === undefined) return false;
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(path.join(entryDir, manifest.file)))
      hash.update(chunk as Buffer);
  } catch {
    return false;
  }
  const sha256 = hash.digest("hex");
  if (sha256 === manifest.sha256) return true;
  log(
    `${manifest.source}: the cached copy's sha256 is ${sha256}, not the ${manifest.sha256} fetched; fetching it again`,
  );
  return false;
}
