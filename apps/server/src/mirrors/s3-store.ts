// One private S3-compatible store used as a mirror (docs/mirrors.md). The server keeps its keys:
// its own requests (the check, holdings, file lists, DELETE) are signed in headers (SigV4), and
// what a node fetches is a presigned GET URL per file, which carries a signature and the key id,
// never the secret. Path-style addressing: ENDPOINT/BUCKET/PREFIX+PATH. S3's error answers are
// turned into sentences naming the mirror and the file, never the signature or the secret.
import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import { s3ErrorCodeOf, s3Refusal, type S3Location } from "@llmgw/domain";
import { request, type Agent } from "undici";
import { SIGNED_URL_SECONDS_MAX, type S3Access } from "./mirror-config";

/** S3 signs a body-less request with this payload hash. */
const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
const CONTENT_SHA256 = "x-amz-content-sha256";

export interface S3Answer {
  status: number;
  /** S3's error code (`SignatureDoesNotMatch`, `NoSuchKey`), when the answer carried one. */
  code: string | undefined;
  /** The body, for a GET that answered 200 (a hub repository's file list). */
  text: string;
}

/** S3's URI encoding: everything but A-Za-z0-9-._~ is percent-encoded, `/` kept between segments. */
export function s3Encode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function encodeKey(key: string): string {
  return key.split("/").map(s3Encode).join("/");
}

/** SigV4 for S3 with the store's keys; the secret is read only when a signature is made. */
export function s3Signer(access: S3Access): SignatureV4 {
  return new SignatureV4({
    credentials: () =>
      Promise.resolve({
        accessKeyId: access.accessKeyId,
        secretAccessKey: access.secretAccessKey.reveal(),
      }),
    region: access.region,
    service: "s3",
    sha256: Sha256,
    // S3 takes the path as sent: each segment encoded once, not twice.
    uriEscapePath: false,
    applyChecksum: false,
  });
}

export class S3Store {
  private readonly signer: SignatureV4;

  constructor(
    readonly name: string,
    private readonly location: S3Location,
    private readonly access: S3Access,
    private readonly io: { agent: Agent; nowMs(): number },
  ) {
    this.signer = s3Signer(access);
  }

  /** How `mirror list` shows it: the bucket and prefix, and the endpoint. */
  address(): string {
    return `s3://${this.location.bucket}/${this.location.prefix} at ${this.access.endpoint}`;
  }

  /** A GET of PATH a node may send without keys until `expiresSeconds` from now (at most 7 days). */
  presignGet(path: string, expiresSeconds: number): Promise<string> {
    const at = new Date(this.io.nowMs());
    return presignedGet(
      this.signer,
      this.access.endpoint,
      this.requestPath(path),
      at,
      expiresSeconds,
    );
  }

  /** A signed HEAD of the bucket (HeadBucket): 200 when the keys work and the bucket is there. */
  check(timeoutMs: number): Promise<S3Answer> {
    return this.send("HEAD", undefined, timeoutMs);
  }

  head(path: string, timeoutMs: number): Promise<S3Answer> {
    return this.send("HEAD", path, timeoutMs);
  }

  get(path: string, timeoutMs: number): Promise<S3Answer> {
    return this.send("GET", path, timeoutMs);
  }

  delete(path: string, timeoutMs: number): Promise<S3Answer> {
    return this.send("DELETE", path, timeoutMs);
  }

  /** Why an answer is a refusal, in words: the status, S3's code and what to check. */
  describe(answer: S3Answer): string {
    return s3Refusal(this.name, answer.status, answer.code);
  }

  /** `/BUCKET/PREFIX+PATH`, encoded as sent and signed; `/BUCKET` for the bucket itself. */
  private requestPath(path: string | undefined): string {
    const bucket = `/${this.location.bucket}`;
    return path === undefined ? bucket : `${bucket}/${encodeKey(this.location.prefix + path)}`;
  }

  private async send(
    method: "GET" | "HEAD" | "DELETE",
    path: string | undefined,
    timeoutMs: number,
  ): Promise<S3Answer> {
    const endpoint = new URL(this.access.endpoint);
    const requestPath = this.requestPath(path);
    const signed = await this.signer.sign(
      {
        method,
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        path: requestPath,
        headers: { host: endpoint.host, [CONTENT_SHA256]: UNSIGNED_PAYLOAD },
      },
      { signingDate: new Date(this.io.nowMs()) },
    );
    const { host: _host, ...headers } = signed.headers;
    const answer = await request(`${endpoint.origin}${requestPath}`, {
      method,
      headers,
      dispatcher: this.io.agent,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (method === "HEAD") {
      await answer.body.dump();
      return { status: answer.statusCode, code: undefined, text: "" };
    }
    const text = await answer.body.text();
    if (answer.statusCode === 200) return { status: 200, code: undefined, text };
    return { status: answer.statusCode, code: s3ErrorCodeOf(text), text: "" };
  }
}

/**
 * A presigned GET of `requestPath` (already S3-encoded) at `endpoint`: SigV4 in the query, the
 * payload unsigned, only the host header signed, so the URL alone is the permission.
 */
export async function presignedGet(
  signer: SignatureV4,
  endpointOrigin: string,
  requestPath: string,
  signingDate: Date,
  expiresSeconds: number,
): Promise<string> {
  const endpoint = new URL(endpointOrigin);
  const signed = await signer.presign(
    {
      method: "GET",
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      ...(endpoint.port !== "" && { port: Number(endpoint.port) }),
      path: requestPath,
      query: {},
      headers: { host: endpoint.host, [CONTENT_SHA256]: UNSIGNED_PAYLOAD },
    },
    {
      signingDate,
      expiresIn: Math.max(1, Math.min(expiresSeconds, SIGNED_URL_SECONDS_MAX)),
      // The payload hash is what the signature covers, not a header the node must send.
      unhoistableHeaders: new Set([CONTENT_SHA256]),
      unsignableHeaders: new Set([CONTENT_SHA256]),
    },
  );
  return `${endpoint.origin}${requestPath}?${queryString(signed.query ?? {})}`;
}

/** The query as SigV4 canonicalises it: keys sorted, keys and values S3-encoded. */
function queryString(query: Record<string, string | string[] | null>): string {
  return Object.keys(query)
    .sort()
    .flatMap((key) => {
      const value = query[key];
      const values = value === null || value === undefined ? [""] : [value].flat();
      return values.map((item) => `${s3Encode(key)}=${s3Encode(item)}`);
    })
    .join("&");
}
