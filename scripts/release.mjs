#!/usr/bin/env node
// `npm run release [-- --version V] [--out DIR]`: builds dist/llmgw-V-linux-x64.tar.gz and its line
// in dist/SHA256SUMS. The tarball holds one folder, llmgw-V/, that runs with Node.js 20 alone:
//   VERSION            V and a newline
//   bin/llmgw          POSIX sh; finds its real folder, exports LLMGW_RELEASE_DIR, execs node
//   lib/llmgw.mjs      the whole CLI (server, agent, ctl, sim-engine, dev, web) as one esbuild bundle
//   lib/node_modules/  the few production dependencies that load files beside their own code
//   drizzle/           the migrations
//   web/               the console as Next's standalone output (web/apps/web/server.js)
// Other parts of llmgw (the upgrade, `llmgw web`, the agent's engine launcher) rely on this layout.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { asciiSource } from "./ascii-source.mjs";
import { copyExternals } from "./release-externals.mjs";
import { ROOT, ensureInstalled, ensureWebBuilt } from "./ensure.mjs";

/** Semantic versions without build metadata: 1.2.3 or 1.2.3-rc.1. */
export const VERSION_RULE = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/**
 * Packages that cannot be bundled because they load files from beside their own code at run time
 * (PGlite's wasm and data files). They go into lib/node_modules with their production
 * dependencies; each is resolved from the workspace package that depends on it.
 */
const EXTERNALS = [{ name: "@electric-sql/pglite", from: "packages/db" }];

export const BIN_SCRIPT = `#!/bin/sh
# llmgw from a release: runs lib/llmgw.mjs with the node found on PATH (Node.js 20 or newer).
self=$0
# Follow links (e.g. /usr/local/bin/llmgw -> /opt/llmgw-V/bin/llmgw) to the release itself.
while [ -L "$self" ]; do
  target=$(readlink "$self")
  case $target in
    /*) self=$target ;;
    *) self=$(dirname "$self")/$target ;;
  esac
done
LLMGW_RELEASE_DIR=$(cd "$(dirname "$self")/.." && pwd -P) || exit 1
export LLMGW_RELEASE_DIR
if ! command -v node >/dev/null 2>&1; then
  echo "llmgw: Node.js 20 or newer is needed, and no \\\`node\\\` is on PATH ($PATH)" >&2
  exit 127
fi
# glibc's malloc keeps much of what a long-running server frees; jemalloc gives it back. Preloaded
# when the system has it (Debian: libjemalloc2) unless LLMGW_MALLOC=system; llmgw takes it out of
# LD_PRELOAD again at start, so the engines it launches keep their own allocator.
# jemalloc keeps the pages it frees for 10 s by default before it gives them back; the agent port's
# churn (every heartbeat's buffers, every handshake's) kept 50 to 60 MiB of them at 2,000 agents,
# and giving them back at once cost no CPU per heartbeat measured (docs/benchmarks.md, P10, session
# 15). An operator's own MALLOC_CONF is used instead; llmgw takes the launcher's out again at start.
case \${LLMGW_MALLOC:-jemalloc} in
  jemalloc)
    for lib in "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2" /usr/lib64/libjemalloc.so.2 /usr/lib/libjemalloc.so.2; do
      if [ -r "$lib" ]; then
        LD_PRELOAD=\${LD_PRELOAD:+$LD_PRELOAD:}$lib
        LLMGW_MALLOC_LIB=$lib
        export LD_PRELOAD LLMGW_MALLOC_LIB
        if [ -z "\${MALLOC_CONF:-}" ]; then
          MALLOC_CONF=dirty_decay_ms:0,muzzy_decay_ms:0
          LLMGW_MALLOC_CONF=$MALLOC_CONF
          export MALLOC_CONF LLMGW_MALLOC_CONF
        fi
        break
      fi
    done
    ;;
  system) ;;
  *)
    echo "llmgw: LLMGW_MALLOC must be jemalloc or system, not \\"$LLMGW_MALLOC\\"" >&2
    exit 2
    ;;
esac
# V8 lets its old generation grow up to four times what survived the last full collection before
# it collects again; a server holding each node's latest heartbeat promotes it and frees it 2 s
# later, so that headroom fills with garbage (30 to 70 MiB of RSS at 800 agents). Growing by at
# most half caps it at no CPU per heartbeat measured; a smaller young generation
# (--max-semi-space-size) saved more but cost 15 to 30 % more CPU a heartbeat (docs/benchmarks.md,
# P10, session 9).
exec node --heap-growing-percent=50 "$LLMGW_RELEASE_DIR/lib/llmgw.mjs" "$@"
`;

// CommonJS dependencies inside an ES module bundle still call require() and read __dirname.
// Node older than 20 is refused here, before anything else runs, in words rather than a crash.
const BUNDLE_BANNER = `#!/usr/bin/env node
import { createRequire as __llmgwCreateRequire } from "node:module";
import { fileURLToPath as __llmgwFileURLToPath } from "node:url";
import { dirname as __llmgwDirname } from "node:path";
const require = __llmgwCreateRequire(import.meta.url);
const __filename = __llmgwFileURLToPath(import.meta.url);
const __dirname = __llmgwDirname(__filename);
if (Number(process.versions.node.split(".")[0]) < 20) {
  process.stderr.write("llmgw: Node.js 20 or newer is needed; this is " + process.version + "\\n");
  process.exit(1);
}`;

const BUNDLE_ENTRY = `import { main } from "./packages/cli/src/main.ts";
process.exitCode = await main(process.argv.slice(2));
`;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: { version: { type: "string" }, out: { type: "string" } },
    strict: true,
  });
  const version = values.version ?? JSON.parse(readFileSync(join(ROOT, "package.json"))).version;
  if (!VERSION_RULE.test(version)) {
    throw new Error(
      `--version ${JSON.stringify(version)} is not a release version: it must match ${VERSION_RULE.source} (e.g. 1.2.3 or 1.2.3-rc.1)`,
    );
  }
  return { version, outDir: resolve(values.out ?? join(ROOT, "dist")) };
}

async function bundle(version, libDir) {
  const { build } = await import("esbuild");
  const startedMs = Date.now();
  await build({
    stdin: { contents: BUNDLE_ENTRY, resolveDir: ROOT, sourcefile: "llmgw-entry.ts", loader: "ts" },
    outfile: join(libDir, "llmgw.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    banner: { js: BUNDLE_BANNER },
    define: { __LLMGW_VERSION__: JSON.stringify(version) },
    external: EXTERNALS.map(({ name }) => name),
    logLevel: "warning",
    legalComments: "none",
    // V8 keeps a module's whole source for as long as the process runs (functions are compiled
    // lazily from it): without the indentation and line breaks it is about 2.4 MiB smaller in every
    // llmgw process (server, agent, sim-engine). Names are kept, so stack traces still name the
    // functions they pass through.
    minifyWhitespace: true,
    minifySyntax: true,
  });
  // One character outside Latin-1, even in a comment, doubles what the source costs each process.
  const outfile = join(libDir, "llmgw.mjs");
  writeFileSync(outfile, asciiSource(readFileSync(outfile, "utf8")));
  return Date.now() - startedMs;
}

function copyWeb(webDir) {
  const app = join(ROOT, "apps", "web");
  const standalone = join(app, ".next", "standalone");
  if (!existsSync(join(standalone, "apps", "web", "server.js"))) {
    throw new Error(
      `${standalone} has no apps/web/server.js: apps/web/next.config.ts must set output: "standalone"`,
    );
  }
  // Links inside the standalone node_modules (pnpm's layout) are relative; kept as they are.
  cpSync(standalone, webDir, { recursive: true, verbatimSymlinks: true });
  // The standalone server serves these from beside itself, but Next leaves them out of its copy.
  cpSync(join(app, ".next", "static"), join(webDir, "apps", "web", ".next", "static"), {
    recursive: true,
  });
  if (existsSync(join(app, "public"))) {
    cpSync(join(app, "public"), join(webDir, "apps", "web", "public"), { recursive: true });
  }
}

function writeLauncher(releaseDir, version) {
  writeFileSync(join(releaseDir, "VERSION"), `${version}\n`);
  mkdirSync(join(releaseDir, "bin"));
  writeFileSync(join(releaseDir, "bin", "llmgw"), BIN_SCRIPT);
  chmodSync(join(releaseDir, "bin", "llmgw"), 0o755);
}

function tarball(stageDir, folder, file) {
  const partial = `${file}.partial`;
  const result = spawnSync(
    "tar",
    ["-C", stageDir, "--owner=0", "--group=0", "--numeric-owner", "-czf", partial, folder],
    { stdio: "inherit" },
  );
  if (result.status !== 0) throw new Error(`tar failed (exit ${result.status ?? result.signal})`);
  renameSync(partial, file);
}

function sha256File(file) {
  return new Promise((done, fail) => {
    const hash = createHash("sha256");
    createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", fail)
      .on("end", () => done(hash.digest("hex")));
  });
}

/** Replaces this tarball's line in SHA256SUMS (sha256sum's format), keeping other versions' lines. */
function recordChecksum(sumsFile, fileName, hex) {
  const kept = existsSync(sumsFile)
    ? readFileSync(sumsFile, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "" && !line.endsWith(`  ${fileName}`))
    : [];
  writeFileSync(sumsFile, [...kept, `${hex}  ${fileName}`].join("\n") + "\n");
}

const mebibytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Builds the release; answers the tarball's path and checksum. */
export async function buildRelease({ version, outDir }) {
  ensureInstalled();
  ensureWebBuilt();
  const folder = `llmgw-${version}`;
  const stageDir = mkdtempSync(join(tmpdir(), "llmgw-release-"));
  try {
    const releaseDir = join(stageDir, folder);
    mkdirSync(join(releaseDir, "lib"), { recursive: true });
    const bundleMs = await bundle(version, join(releaseDir, "lib"));
    copyExternals(EXTERNALS, join(releaseDir, "lib", "node_modules"));
    cpSync(join(ROOT, "drizzle"), join(releaseDir, "drizzle"), { recursive: true });
    copyWeb(join(releaseDir, "web"));
    writeLauncher(releaseDir, version);
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `${folder}-linux-x64.tar.gz`);
    tarball(stageDir, folder, file);
    const sha256 = await sha256File(file);
    recordChecksum(join(outDir, "SHA256SUMS"), basename(file), sha256);
    const bundleBytes = statSync(join(releaseDir, "lib", "llmgw.mjs")).size;
    console.log(`llmgw release ${version}:`);
    console.log(`  ${file}  ${mebibytes(statSync(file).size)}`);
    console.log(`  ${join(outDir, "SHA256SUMS")}  sha256 ${sha256}`);
    console.log(`  lib/llmgw.mjs ${mebibytes(bundleBytes)}, bundled in ${bundleMs} ms`);
    return { file, sha256 };
  } finally {
    rmSync(stageDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  try {
    await buildRelease(parseOptions(process.argv.slice(2)));
  } catch (error) {
    console.error(`llmgw release: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
