// An S3-compatible store's address in LLMGW_MIRRORS: `s3://BUCKET/PREFIX/` (docs/mirrors.md).
export interface S3Location {
  bucket: string;
  /** Empty, or ends in "/": each file's key is PREFIX + PATH. */
  prefix: string;
}

/** S3's bucket naming rules: 3-63 of lower-case letters, digits, `.` and `-`, no `..`. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._+-]{0,254}$/;

/** `s3://models/llm/` → the bucket and key prefix, or why it is not one. */
export function parseS3Address(address: string): S3Location | string {
  const rest = address.slice("s3://".length);
  const slash = rest.indexOf("/");
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const prefix = slash < 0 ? "" : rest.slice(slash + 1);
  if (!BUCKET.test(bucket) || bucket.includes(".."))
    return `"${address}" does not name an S3 bucket (3-63 lower-case letters, digits, . and -): write s3://BUCKET/PREFIX/`;
  const segments = prefix.split("/").filter((segment) => segment !== "");
  if (prefix.includes("?") || prefix.includes("#") || prefix.includes("//"))
    return `"${address}" has a query, fragment or empty segment; write s3://BUCKET/PREFIX/`;
  if (!segments.every((segment) => PREFIX_SEGMENT.test(segment) && !segment.includes("..")))
    return `"${address}": the prefix after the bucket may hold only A-Za-z0-9._+- segments`;
  return { bucket, prefix: segments.length === 0 ? "" : `${segments.join("/")}/` };
}

/** `store` → `LLMGW_MIRROR_STORE_`: the server settings an S3 mirror of that name reads. */
export function s3SettingPrefix(name: string): string {
  return `LLMGW_MIRROR_${name.toUpperCase().replaceAll("-", "_")}_`;
}

/** An S3 error body is a few hundred bytes of XML; its <Code> is all that is read. */
const ERROR_BODY_MAX_BYTES = 4_096;

/** S3's `<Code>` from an error body; nothing else of it (its message may echo the request). */
export function s3ErrorCodeOf(body: string): string | undefined {
  return /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(body.slice(0, ERROR_BODY_MAX_BYTES))?.[1];
}

/** What to look at for S3's error codes; `$` is the mirror's setting prefix. */
const CODE_HINTS: Record<string, string> = {
  SignatureDoesNotMatch: "the store did not accept the signature: check $SECRET_ACCESS_KEY",
  InvalidAccessKeyId: "the store does not know the key id: check $ACCESS_KEY_ID",
  AccessDenied: "the store refused the keys, or the signed URL had expired",
  AuthorizationHeaderMalformed: "the store is in another region: check $REGION",
  RequestTimeTooSkewed: "the server's clock is too far from the store's",
  NoSuchBucket: "the bucket does not exist",
  NoSuchKey: "the file is not in the bucket",
};

/** A HEAD's answer has no body, so no code: its status says what it can. */
const STATUS_HINTS: Record<number, string> = {
  400: "the store refused the request: check $REGION",
  403: "the store refused the keys or their signature: check $ACCESS_KEY_ID and $SECRET_ACCESS_KEY",
  404: "not in the bucket, or no such bucket",
};

/**
 * An S3 store's refusal in words, for `mirror list`, the server's log and a replica's message:
 * `HTTP 403 SignatureDoesNotMatch: the store did not accept the signature: check
 * LLMGW_MIRROR_STORE_SECRET_ACCESS_KEY`. Never the signature or the request S3 echoes.
 */
export function s3Refusal(mirror: string, status: number, code: string | undefined): string {
  const hint = code === undefined ? STATUS_HINTS[status] : CODE_HINTS[code];
  const text = hint?.replaceAll("$", s3SettingPrefix(mirror));
  return `HTTP ${status}${code === undefined ? "" : ` ${code}`}${text === undefined ? "" : `: ${text}`}`;
}
