// Where a model's weights come from, and whether loading them would run code. The same reading is
// used when a definition is added and when a node is about to fetch, so both refuse the same sources.

export type SourceKind = "hub" | "url" | "file" | "mirror";

export const PICKLE_EXTENSIONS = [".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pt2"] as const;

// A file's path on the server's mirrors (docs/mirrors.md): relative, no "..", an optional
// "#sha256=<hex>" naming the checksum the node verifies.
const MIRROR_SOURCE =
  /^mirror:([A-Za-z0-9_][A-Za-z0-9._/+-]{0,1023})(?:#sha256=([0-9a-fA-F]{64}))?$/;

// An organisation and a repository, as Hugging Face spells them; an optional "hf:" in front.
const HUB_ID = /^(?:hf:)?[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

/** How a source string is read, or undefined when it is none of the accepted forms. */
export function sourceKind(source: string): SourceKind | undefined {
  if (/^https?:\/\/[^\s/]+/i.test(source)) return "url";
  if (/^file:\/\/\/\S*$/i.test(source) || /^\/\S*$/.test(source)) return "file";
  if (mirrorPathOf(source) !== undefined) return "mirror";
  if (HUB_ID.test(source) && !source.includes("..")) return "hub";
  return undefined;
}

/**
 * The pickle extension the source ends with, or undefined. A query or fragment is cut first,
 * because `https://host/model.bin?download=1` fetches the same pickle as `https://host/model.bin`.
 */
export function pickleExtension(source: string): string | undefined {
  const path = source.split(/[?#]/, 1)[0] ?? "";
  const lower = path.toLowerCase().replace(/\/+$/, "");
  return PICKLE_EXTENSIONS.find((extension) => lower.endsWith(extension));
}

/** The path a `mirror:` source names on each mirror, or undefined for any other source. */
export function mirrorPathOf(source: string): string | undefined {
  const path = MIRROR_SOURCE.exec(source)?.[1];
  if (path === undefined || path.endsWith("/")) return undefined;
  return path.split("/").some((part) => part === "" || part === "." || part === "..")
    ? undefined
    : path;
}

/** The sha256 a `mirror:` source names after `#sha256=`, in lower case; undefined when none. */
export function sourceSha256Of(source: string): string | undefined {
  return MIRROR_SOURCE.exec(source)?.[2]?.toLowerCase();
}
