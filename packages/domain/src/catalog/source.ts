// Where a model's weights come from, and whether loading them would run code. The same reading is
// used when a definition is added and when a node is about to fetch, so both refuse the same sources.

export type SourceKind = "hub" | "url" | "file";

export const PICKLE_EXTENSIONS = [".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pt2"] as const;

// An organisation and a repository, as Hugging Face spells them; an optional "hf:" in front.
const HUB_ID = /^(?:hf:)?[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

/** How a source string is read, or undefined when it is none of the accepted forms. */
export function sourceKind(source: string): SourceKind | undefined {
  if (/^https?:\/\/[^\s/]+/i.test(source)) return "url";
  if (/^file:\/\/\/\S*$/i.test(source) || /^\/\S*$/.test(source)) return "file";
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
