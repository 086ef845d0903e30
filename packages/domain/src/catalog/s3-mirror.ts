// S3-compatible stores as mirrors (docs/mirrors.md): `NAME=s3://BUCKET/PREFIX/` in LLMGW_MIRRORS.
// The bucket is private: the server holds its credentials and signs each file's address for the
// node, so a node is sent a signed URL per file (MirrorAddress.signed_urls), never a key. Which
// paths a replica's frame carries signed addresses for is decided here.
import { hubListPath, hubRepoOf } from "./hub-mirror";
import { mirrorFileUrl } from "./mirrors";
import { mirrorPathOf } from "./source";

/** A mirror as a node is sent it: an HTTP base URL, or an S3 store's signed URL per file. */
export interface MirrorAddress {
  name: string;
  /** Empty for an S3 store: its files are reached only through `signedUrls`. */
  baseUrl: string;
  /** Path on the mirror → its signed URL; a path absent here is one the mirror does not serve. */
  signedUrls?: Readonly<Record<string, string>>;
  /** When the signed URLs stop working (Unix ms); 0 for an HTTP mirror. */
  expiresUnixMs?: number;
}

/**
 * The URL a node fetches PATH from on a mirror: the signed one when the mirror is an S3 store
 * (undefined when the server signed none for it), else below the base URL (undefined when the
 * base is empty: an S3 store sent to a node that cannot read signed URLs).
 */
export function mirrorUrlOf(mirror: MirrorAddress, path: string): string | undefined {
  if (mirror.signedUrls !== undefined) return mirror.signedUrls[path];
  return mirror.baseUrl === "" ? undefined : mirrorFileUrl(mirror.baseUrl, path);
}

/**
 * Whether a path on the mirrors is one a replica loading `sources` reads: a `mirror:PATH` file and
 * the checksum published beside it, or a hub repository's list and files.
 */
export function isPathFor(sources: readonly (string | undefined)[], path: string): boolean {
  return sources.some((source) => {
    if (source === undefined) return false;
    const file = mirrorPathOf(source);
    if (file !== undefined) return path === file || path === `${file}.sha256`;
    const repo = hubRepoOf(source);
    return (
      repo !== undefined && (path === hubListPath(repo) || path.startsWith(`${repo}/resolve/`))
    );
  });
}

/** The mirror as sent for a replica: an S3 store's signed URLs cut to the paths it reads. */
export function addressFor(
  mirror: MirrorAddress,
  sources: readonly (string | undefined)[],
): MirrorAddress {
  if (mirror.signedUrls === undefined) return { name: mirror.name, baseUrl: mirror.baseUrl };
  const signedUrls = Object.fromEntries(
    Object.entries(mirror.signedUrls).filter(([path]) => isPathFor(sources, path)),
  );
  return { name: mirror.name, baseUrl: "", signedUrls, expiresUnixMs: mirror.expiresUnixMs ?? 0 };
}
