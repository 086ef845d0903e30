// Mirrors: servers in the company's network holding model files, named in the server's settings
// (LLMGW_MIRRORS, docs/mirrors.md). The first is the primary, the rest its peers holding the same
// files. Which order a node tries them in, and which catalog models need a file, are decided here.
import { parseS3Address, type S3Location } from "./s3-address";
import { mirrorPathOf } from "./source";

export interface MirrorSetting {
  name: string;
  /** Ends in "/": file paths are resolved against it. For an S3 store, `s3://BUCKET/PREFIX/`. */
  baseUrl: string;
  /** Set for an S3-compatible store: the server signs each file's address for the node. */
  s3?: S3Location;
}

const MIRROR_NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

function parseMirror(entry: string): MirrorSetting | string {
  const equals = entry.indexOf("=");
  const name = equals < 0 ? "" : entry.slice(0, equals).trim();
  const address = entry.slice(equals + 1).trim();
  if (!MIRROR_NAME.test(name))
    return `mirror "${entry}": write NAME=URL, the name in lower-case letters, digits and - (up to 32)`;
  if (address.startsWith("s3://")) {
    const s3 = parseS3Address(address);
    if (typeof s3 === "string") return `mirror "${name}": ${s3}`;
    return { name, baseUrl: `s3://${s3.bucket}/${s3.prefix}`, s3 };
  }
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return `mirror "${name}": "${address}" is not a URL`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `mirror "${name}": "${address}" is not an http(s):// or s3:// URL`;
  if (url.username !== "" || url.password !== "")
    return `mirror "${name}": the URL carries a user or password, which every node and log would see; give the mirror's files without them`;
  if (url.search !== "" || url.hash !== "")
    return `mirror "${name}": the URL has a query or fragment; give only the files' base URL`;
  const path = url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`;
  return { name, baseUrl: `${url.origin}${path}` };
}

/** `primary=https://a/models/,peer=https://b/` → the mirrors in order, the first the primary. */
export function parseMirrors(
  text: string,
): { ok: true; mirrors: MirrorSetting[] } | { ok: false; errors: string[] } {
  const mirrors: MirrorSetting[] = [];
  const errors: string[] = [];
  for (const entry of text.split(",").map((part) => part.trim())) {
    if (entry === "") continue;
    const parsed = parseMirror(entry);
    if (typeof parsed === "string") errors.push(parsed);
    else if (mirrors.some((mirror) => mirror.name === parsed.name))
      errors.push(`mirror "${parsed.name}" is named twice`);
    else mirrors.push(parsed);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, mirrors };
}

/** undefined: not checked yet. */
export type MirrorAnswer = "up" | "down" | undefined;

/**
 * The order a node is sent the mirrors in: those whose last check answered, in the settings'
 * order (the primary first), then those not checked yet, then those down. Down ones stay in the
 * list: a check is fifteen seconds old at worst, and the node moves past one that fails anyway.
 */
export function mirrorOrder(
  mirrors: readonly MirrorSetting[],
  answerOf: (name: string) => MirrorAnswer,
): MirrorSetting[] {
  const rank = (mirror: MirrorSetting): number => {
    const answer = answerOf(mirror.name);
    return answer === "up" ? 0 : answer === undefined ? 1 : 2;
  };
  return mirrors
    .map((mirror, index) => ({ mirror, index, rank: rank(mirror) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.mirror);
}

/** The URL of a file on a mirror: each path segment encoded, below the mirror's base. */
export function mirrorFileUrl(baseUrl: string, path: string): string {
  const base = baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;
  return base + path.split("/").map(encodeURIComponent).join("/");
}

interface ModelSources {
  name: string;
  source?: string | undefined;
  adapters?: readonly { name: string; source: string }[];
}

/** Each mirror path the catalog loads, with the models (and `MODEL:ADAPTER`s) that load it. */
export function mirrorPathsInCatalog(models: Iterable<ModelSources>): Map<string, string[]> {
  const users = new Map<string, string[]>();
  const add = (source: string | undefined, user: string): void => {
    const path = source === undefined ? undefined : mirrorPathOf(source);
    if (path !== undefined) users.set(path, [...(users.get(path) ?? []), user]);
  };
  for (const model of models) {
    add(model.source, model.name);
    for (const adapter of model.adapters ?? [])
      add(adapter.source, `${model.name}:${adapter.name}`);
  }
  return users;
}
