// The server's mirror settings (docs/mirrors.md): which mirrors nodes fetch `mirror:PATH` sources
// from, and how often each is checked. Part of the server's environment schema in config.ts. An
// S3-compatible store (`NAME=s3://BUCKET/PREFIX/`) also takes its endpoint, region and keys from
// LLMGW_MIRROR_<NAME>_*; the secret key stays on the server, wrapped so it never prints.
import { z } from "zod";
import { parseMirrors, s3SettingPrefix, type MirrorSetting } from "@llmgw/domain";

/** S3 allows a presigned URL to live at most a week. */
export const SIGNED_URL_SECONDS_MAX = 604_800;

export const MIRRORS_ENV = {
  /** NAME=URL, comma-separated, the primary first (docs/mirrors.md). */
  LLMGW_MIRRORS: z
    .string()
    .default("")
    .transform((text, ctx) => {
      const parsed = parseMirrors(text);
      if (parsed.ok) return parsed.mirrors;
      for (const error of parsed.errors) ctx.addIssue({ code: "custom", message: error });
      return z.NEVER;
    }),
  LLMGW_MIRROR_CHECK_MS: z.coerce
    .number({ message: "LLMGW_MIRROR_CHECK_MS must be a number" })
    .int("LLMGW_MIRROR_CHECK_MS must be a whole number")
    .min(200, "LLMGW_MIRROR_CHECK_MS must be at least 200")
    .max(600_000, "LLMGW_MIRROR_CHECK_MS must be at most 600000")
    .default(15_000),
  /** How long a URL signed for a node stays good; re-signed at every check. */
  LLMGW_MIRROR_SIGNED_URL_SECONDS: z.coerce
    .number({ message: "LLMGW_MIRROR_SIGNED_URL_SECONDS must be a number" })
    .int("LLMGW_MIRROR_SIGNED_URL_SECONDS must be a whole number")
    .min(60, "LLMGW_MIRROR_SIGNED_URL_SECONDS must be at least 60")
    .max(
      SIGNED_URL_SECONDS_MAX,
      `LLMGW_MIRROR_SIGNED_URL_SECONDS must be at most ${SIGNED_URL_SECONDS_MAX} (7 days, the most S3 allows)`,
    )
    .default(900),
};

/** A secret that prints as [redacted] in logs, JSON and util.inspect; `reveal()` gives it. */
export class RedactedSecret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return "[redacted]";
  }
  toJSON(): string {
    return "[redacted]";
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return "[redacted]";
  }
}

/** How the server reaches one S3-compatible store (path-style: ENDPOINT/BUCKET/KEY). */
export interface S3Access {
  /** Origin only, e.g. http://10.0.0.5:9000. */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: RedactedSecret;
}

export interface MirrorsConfig {
  /** The mirrors nodes fetch mirror:PATH sources from, the primary first. */
  list: MirrorSetting[];
  /** How often each mirror is asked whether it answers (its timeout is the same, at most 3 s). */
  checkIntervalMs: number;
  /** The S3 stores' endpoints and keys, by mirror name. */
  s3: ReadonlyMap<string, S3Access>;
  /** How long a URL signed for a node stays good. */
  signedUrlSeconds: number;
}

function s3AccessSchema(prefix: string) {
  const required = (what: string) =>
    z
      .string({ message: `${prefix}${what} is not set (the S3 mirror needs it)` })
      .trim()
      .min(1, `${prefix}${what} is empty`);
  return z.object({
    ENDPOINT: required("ENDPOINT").transform((text, ctx) => {
      const url = URL.canParse(text) ? new URL(text) : undefined;
      const isBare =
        url !== undefined &&
        (url.protocol === "http:" || url.protocol === "https:") &&
        url.username === "" &&
        url.password === "" &&
        url.pathname === "/" &&
        url.search === "" &&
        url.hash === "";
      if (url && isBare) return url.origin;
      ctx.addIssue({
        code: "custom",
        message: `${prefix}ENDPOINT "${text}" must be an http(s):// origin without a path, user or query (e.g. http://10.0.0.5:9000); buckets are addressed path-style`,
      });
      return z.NEVER;
    }),
    REGION: z
      .string()
      .trim()
      .regex(/^[a-z0-9-]{1,32}$/, `${prefix}REGION must be a region name such as us-east-1`)
      .default("us-east-1"),
    ACCESS_KEY_ID: required("ACCESS_KEY_ID").pipe(
      z.string().regex(/^[A-Za-z0-9_+=.@-]{1,128}$/, `${prefix}ACCESS_KEY_ID is not a key id`),
    ),
    SECRET_ACCESS_KEY: required("SECRET_ACCESS_KEY"),
  });
}

/**
 * Each S3 mirror's endpoint, region and keys from its LLMGW_MIRROR_<NAME>_* settings (the
 * environment or the home's settings file), or the sentences naming what is missing or wrong.
 */
function s3AccessFrom(
  list: readonly MirrorSetting[],
  settings: Readonly<Record<string, string | undefined>>,
): { ok: true; s3: Map<string, S3Access> } | { ok: false; errors: string[] } {
  const s3 = new Map<string, S3Access>();
  const errors: string[] = [];
  for (const mirror of list.filter((setting) => setting.s3 !== undefined)) {
    const prefix = s3SettingPrefix(mirror.name);
    const read = (what: string) => settings[`${prefix}${what}`];
    const parsed = s3AccessSchema(prefix).safeParse({
      ENDPOINT: read("ENDPOINT"),
      REGION: read("REGION") || undefined,
      ACCESS_KEY_ID: read("ACCESS_KEY_ID"),
      SECRET_ACCESS_KEY: read("SECRET_ACCESS_KEY"),
    });
    if (!parsed.success) {
      errors.push(
        ...parsed.error.issues.map((issue) => `mirror "${mirror.name}": ${issue.message}`),
      );
      continue;
    }
    s3.set(mirror.name, {
      endpoint: parsed.data.ENDPOINT,
      region: parsed.data.REGION,
      accessKeyId: parsed.data.ACCESS_KEY_ID,
      secretAccessKey: new RedactedSecret(parsed.data.SECRET_ACCESS_KEY),
    });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, s3 };
}

/** The mirrors' part of the server's configuration; throws `refuse`'s error naming bad entries. */
export function mirrorsConfigFrom(
  e: {
    LLMGW_MIRRORS: MirrorSetting[];
    LLMGW_MIRROR_CHECK_MS: number;
    LLMGW_MIRROR_SIGNED_URL_SECONDS: number;
  },
  settings: Readonly<Record<string, string | undefined>>,
  refuse: (message: string) => Error,
): MirrorsConfig {
  const s3 = s3AccessFrom(e.LLMGW_MIRRORS, settings);
  if (!s3.ok) throw refuse(`LLMGW_MIRRORS: ${s3.errors.join("; ")}`);
  return {
    list: e.LLMGW_MIRRORS,
    checkIntervalMs: e.LLMGW_MIRROR_CHECK_MS,
    s3: s3.s3,
    signedUrlSeconds: e.LLMGW_MIRROR_SIGNED_URL_SECONDS,
  };
}
