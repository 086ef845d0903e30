// One HTTP download into a cache entry: streamed to a partial file beside the target, hashed as it
// arrives, renamed into place only once whole and (when a checksum is expected) matching. Whatever
// goes wrong, the partial file is removed: nothing half-written or unverified is ever kept.
import { messageOf, pickleExtension, s3ErrorCodeOf } from "@llmgw/domain";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { PARTIAL_PREFIX } from "./layout";

export interface FetchProgress {
  receivedBytes: number;
  /** Absent when the server sent no Content-Length. */
  totalBytes: number | undefined;
}

export class WeightFetchError extends Error {
  override readonly name = "WeightFetchError";
}

export interface DownloadRequest {
  url: string;
  /** How the file is named in messages: the source, or `PATH on mirror NAME`. */
  what: string;
  entryDir: string;
  file: string;
  allowPickle: boolean;
  /** Lower-case hex; the file is refused unless its sha256 is this. */
  expectedSha256?: string | undefined;
  /** Where the expected checksum came from, for the refusal's sentence. */
  expectedFrom?: string;
  fetchImpl: typeof fetch;
  /** How an error answer is told (an S3 store's names its code); default: the status. */
  describeRefusal?: ((status: number, code: string | undefined) => string) | undefined;
  onProgress?: ((progress: FetchProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface Downloaded {
  receivedBytes: number;
  sha256: string;
}

/** Refuses a pickle source unless the model allows it; the same rule the catalog applies. */
export function checkPickle(source: string, allowPickle: boolean): void {
  const extension = pickleExtension(source);
  if (extension === undefined || allowPickle) return;
  throw new WeightFetchError(
    `source ${describeSource(source)} ends in ${extension}, a Python pickle that runs code when loaded; ` +
      "mirror the model's .safetensors (or .gguf) files instead, or set allow_pickle on the model if you trust it",
  );
}

async function open(request: DownloadRequest): Promise<Response> {
  const response = await request
    .fetchImpl(request.url, { signal: request.signal ?? null, redirect: "follow" })
    .catch((error: unknown) => {
      throw new WeightFetchError(`fetching ${request.what}: ${messageOf(error)}`);
    });
  if (!response.ok || response.body === null) {
    // An S3 store says why in an XML body; only its <Code> is read (never its echo of the request).
    const isXml = /xml/i.test(response.headers.get("content-type") ?? "");
    const code = isXml ? s3ErrorCodeOf(await response.text().catch(() => "")) : undefined;
    await response.body?.cancel().catch(() => undefined);
    const answered = request.describeRefusal?.(response.status, code) ?? `HTTP ${response.status}`;
    throw new WeightFetchError(`fetching ${request.what}: the server answered ${answered}`);
  }
  // A redirect can land on a pickle the source's own name did not show.
  if (response.url !== "" && response.url !== request.url)
    checkPickle(response.url, request.allowPickle);
  return response;
}

export async function downloadFile(request: DownloadRequest): Promise<Downloaded> {
  const response = await open(request);
  const partial = path.join(request.entryDir, `${PARTIAL_PREFIX}${randomBytes(4).toString("hex")}`);
  const totalHeader = Number(response.headers.get("content-length"));
  const totalBytes = Number.isFinite(totalHeader) && totalHeader > 0 ? totalHeader : undefined;
  const hash = createHash("sha256");
  let receivedBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      receivedBytes += chunk.length;
      hash.update(chunk);
      request.onProgress?.({ receivedBytes, totalBytes });
      callback(null, chunk);
    },
  });
  try {
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    await pipeline(body, counter, createWriteStream(partial, { mode: 0o600 }), {
      signal: request.signal,
    });
    const sha256 = hash.digest("hex");
    checkSha256(request, sha256);
    await rename(partial, path.join(request.entryDir, request.file));
    return { receivedBytes, sha256 };
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof WeightFetchError) throw error;
    throw new WeightFetchError(`fetching ${request.what}: ${messageOf(error)}`);
  }
}

function checkSha256(request: DownloadRequest, sha256: string): void {
  const expected = request.expectedSha256;
  if (expected === undefined || expected === sha256) return;
  throw new WeightFetchError(
    `${request.what}: sha256 is ${sha256}, but ${request.expectedFrom ?? "the source"} says ${expected}; ` +
      "the file is refused and nothing of it kept (fix or re-publish the file on the mirror)",
  );
}

/** A URL without its query, which may carry a signed token. */
export function describeSource(source: string): string {
  try {
    const url = new URL(source);
    return url.protocol === "http:" || url.protocol === "https:"
      ? `${url.origin}${url.pathname}`
      : source;
  } catch {
    return source;
  }
}
