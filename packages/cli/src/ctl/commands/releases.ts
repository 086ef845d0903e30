// `llmgw ctl release add|list|remove`: the releases the control plane keeps for `ctl upgrade`. A
// release is checked here against its SHA256SUMS before it is sent, and again by the server.
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import type { ReleaseView } from "@llmgw/api";
import { parseReleaseFileName, parseSums, sha256File } from "@llmgw/release";
import { required, UsageError } from "../args";
import { CtlError } from "../client";
import { renderTable } from "../table";
import { printJson, type Command, type CommandContext } from "./command";

const RELEASE_USAGE =
  "release add FILE [--sums SHA256SUMS] [--json] | list [--json] | remove VERSION";

/** The file's hash, once it matches its line in the checksums file (refused otherwise). */
export async function checkAgainstSums(file: string, sumsFile: string): Promise<string> {
  const name = basename(file);
  const sumsText = await readFile(sumsFile, "utf8").catch(() => {
    throw new CtlError(`cannot read ${sumsFile}; give the release's checksums with --sums FILE`);
  });
  const expected = parseSums(sumsText).get(name);
  if (!expected) throw new CtlError(`${sumsFile} has no line for ${name}`);
  const actual = await sha256File(file);
  if (actual !== expected) {
    throw new CtlError(
      `${name} does not match ${sumsFile}: its SHA-256 is ${actual}, the file says ${expected}`,
    );
  }
  return actual;
}

async function addRelease(ctx: CommandContext, file: string): Promise<number> {
  const name = basename(file);
  if (parseReleaseFileName(name) === null) {
    throw new UsageError(`${name} is not a release file name (llmgw-1.2.3-linux-x64.tar.gz)`);
  }
  const bytes = (await stat(file).catch(() => null))?.size;
  if (bytes === undefined) throw new CtlError(`cannot read ${file}`);
  const sha256 = await checkAgainstSums(file, ctx.values.sums ?? join(dirname(file), "SHA256SUMS"));
  const res = await fetch(`${ctx.target.server}/api/releases/${name}`, {
    method: "PUT",
    headers: {
      ...(ctx.target.token ? { authorization: `Bearer ${ctx.target.token}` } : {}),
      "x-llmgw-sha256": sha256,
      "content-length": String(bytes),
      "content-type": "application/gzip",
    },
    body: Readable.toWeb(createReadStream(file)),
    duplex: "half",
  });
  const answer = (await res.json().catch(() => ({}))) as Partial<ReleaseView & { message: string }>;
  if (!res.ok) {
    throw new CtlError(
      `${ctx.target.server} refused ${name}: ${answer.message ?? `HTTP ${res.status}`}`,
    );
  }
  if (ctx.values.json) printJson(ctx, answer);
  else
    ctx.write(
      `added release ${answer.version ?? "?"} (sha256 ${answer.sha256 ?? sha256}, ${bytes} bytes)\n`,
    );
  return 0;
}

function releasesTable(releases: readonly ReleaseView[]): string {
  const rows = releases.map((r) => [r.version, String(r.bytes), r.added, r.sha256]);
  return renderTable(["VERSION", "BYTES", "ADDED", "SHA256"], rows);
}

async function releaseCommand(ctx: CommandContext): Promise<number> {
  const [verb, ...rest] = ctx.args;
  switch (verb) {
    case "add":
      return addRelease(ctx, required(rest, 0, "FILE", RELEASE_USAGE));
    case "list":
    case undefined: {
      const releases = await ctx.api.releases.list.query();
      if (ctx.values.json) printJson(ctx, releases);
      else
        ctx.write(
          releases.length === 0
            ? "no releases stored; add one with `llmgw ctl release add FILE`\n"
            : releasesTable(releases),
        );
      return 0;
    }
    case "remove": {
      const { version } = await ctx.api.releases.remove.mutate({
        version: required(rest, 0, "VERSION", "release remove VERSION"),
      });
      ctx.write(`release ${version} removed\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown release command "${verb}"; usage: ${RELEASE_USAGE}`);
  }
}

export const releaseCommands: Record<string, Command> = {
  release: {
    usage: RELEASE_USAGE,
    summary: "releases kept for upgrades: add (checked against SHA256SUMS), list, remove",
    flags: ["sums", "json"],
    takesArguments: true,
    run: releaseCommand,
  },
};
