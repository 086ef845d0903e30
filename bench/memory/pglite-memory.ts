// What sets the embedded store's memory: `tsx memory/pglite-memory.ts [--variant NAME=JSON]…`
// opens PGlite (the version @llmgw/db uses, with llmgw's migrations) in a fresh process per
// variant, as a first start (initdb, then the migrations), again as a restart on the same data
// directory, and after a workload shaped like P10's (2,000 node rows written and rewritten as
// heartbeats' writes are, 10,000 key rows made and each looked up once). A variant's JSON is
// `{"params": ["-c", "work_mem=1MB", …], "initialMemoryMib": 64}`: the `-c` settings are added
// after PGlite's defaults and llmgw's own (as packages/db's openPglite gives them). Each reading
// comes after a forced collection: the process's RSS, V8's external memory, the size of the
// WebAssembly memory and how much of it is resident (its mapping in /proc/self/smaps), and the
// resident code V8 compiled. `"nodeFlags": [...]` runs the variant's process with node flags.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { MIGRATIONS_DIR, PGLITE_SHARED_BUFFERS } from "@llmgw/db";

const MIB = 2 ** 20;

interface Variant {
  params?: string[];
  initialMemoryMib?: number;
  /** Flags for the node process that runs PGlite (V8's WebAssembly compiler's among them). */
  nodeFlags?: string[];
}

interface PgliteClient {
  Module: { HEAPU8: Uint8Array };
  exec(sql: string): Promise<unknown>;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

/** Resident KiB of executable mappings that map no file: code V8 compiled (JavaScript, wasm). */
function compiledCodeKib(): number {
  const blocks = readFileSync("/proc/self/smaps", "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
  let rss = 0;
  for (const block of blocks) {
    const header = block.split("\n", 1)[0]?.trim().split(/\s+/) ?? [];
    if (header.length <= 5 && header[1]?.includes("x"))
      rss += Number(/^Rss:\s+(\d+)/m.exec(block)?.[1] ?? 0);
  }
  return rss;
}

/**
 * The resident KiB of the WebAssembly memory: V8 maps its accessible part as one read-write
 * mapping exactly its size (the guard regions around it are mapped apart, inaccessible).
 */
function wasmResidentKib(wasmBytes: number): number {
  const blocks = readFileSync("/proc/self/smaps", "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
  let rss = 0;
  for (const block of blocks) {
    const size = Number(/^Size:\s+(\d+)/m.exec(block)?.[1] ?? 0);
    const isReadWrite = / rw/.test(block.split("\n", 1)[0] ?? "");
    if (isReadWrite && size * 1024 === wasmBytes)
      rss = Math.max(rss, Number(/^Rss:\s+(\d+)/m.exec(block)?.[1] ?? 0));
  }
  return rss;
}

function reading(stage: string, client: PgliteClient) {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  const wasmBytes = client.Module.HEAPU8.buffer.byteLength;
  return {
    stage,
    rssMib: usage.rss / MIB,
    externalMib: usage.external / MIB,
    wasmMib: wasmBytes / MIB,
    wasmResidentMib: wasmResidentKib(wasmBytes) / 1024,
    codeMib: compiledCodeKib() / 1024,
  };
}

/** PGlite and drizzle are @llmgw/db's dependencies, not the bench's: the very copies it loads. */
async function fromDb<T>(specifier: string): Promise<T> {
  const db = createRequire(createRequire(import.meta.url).resolve("@llmgw/db"));
  return (await import(pathToFileURL(db.resolve(specifier)).href)) as T;
}

interface PgliteModule {
  PGlite: {
    defaultStartParams: string[];
    create(dataDir: string, options: object): Promise<PgliteClient>;
  };
}

async function openClient(dataDir: string, variant: Variant): Promise<PgliteClient> {
  const { PGlite } = await fromDb<PgliteModule>("@electric-sql/pglite");
  return PGlite.create(dataDir, {
    startParams: [
      ...PGlite.defaultStartParams,
      ...["-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
      ...(variant.params ?? []),
    ],
    ...(variant.initialMemoryMib ? { initialMemory: variant.initialMemoryMib * MIB } : {}),
  });
}

async function migrate(client: PgliteClient): Promise<void> {
  const { drizzle } = await fromDb<{ drizzle(client: unknown): unknown }>("drizzle-orm/pglite");
  const { migrate: run } = await fromDb<{
    migrate(db: unknown, options: { migrationsFolder: string }): Promise<void>;
  }>("drizzle-orm/pglite/migrator");
  await run(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
}

/** Node rows rewritten as the write batch does, then keys made and looked up one by one. */
async function workload(client: PgliteClient): Promise<void> {
  await client.exec(`create table bench_nodes (id text primary key, seen bigint, facts jsonb);
    create table bench_keys (id text primary key, hash text unique, name text, made bigint)`);
  const facts = JSON.stringify({ gpus: Array.from({ length: 8 }, (_, at) => ({ at, x: "y" })) });
  for (let node = 0; node < 2_000; node += 1)
    await client.query("insert into bench_nodes values ($1, $2, $3)", [`n${node}`, node, facts]);
  for (let round = 0; round < 5; round += 1)
    await client.query("update bench_nodes set seen = seen + 1, facts = $1", [facts]);
  for (let key = 0; key < 10_000; key += 1)
    await client.query("insert into bench_keys values ($1, $2, $3, $4)", [
      `k${key}`,
      String(key).padStart(64, "0"),
      `key ${key}`,
      key,
    ]);
  for (let key = 0; key < 10_000; key += 1)
    await client.query("select * from bench_keys where hash = $1", [String(key).padStart(64, "0")]);
}

async function child(variant: Variant): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "pglite-memory-"));
  try {
    const readings = [];
    let client = await openClient(dataDir, variant);
    await migrate(client);
    readings.push(reading("first start", client));
    await client.close();
    client = await openClient(dataDir, variant);
    await migrate(client);
    readings.push(reading("restart", client));
    await workload(client);
    readings.push(reading("after the workload", client));
    await client.close();
    console.log(JSON.stringify(readings));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function parent(variants: string[]): void {
  for (const text of variants) {
    const [name = "", ...rest] = text.split("=");
    const json = rest.join("=") || "{}";
    const flags = (JSON.parse(json) as Variant).nodeFlags ?? [];
    const run = spawnSync(
      process.execPath,
      ["--expose-gc", ...flags, ...process.execArgv, import.meta.filename, "--child", json],
      { encoding: "utf8" },
    );
    if (run.status !== 0) throw new Error(`${name} failed:\n${run.stderr}`);
    const readings = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "[]") as ReturnType<
      typeof reading
    >[];
    for (const row of readings)
      console.log(
        `${name} ${json}: ${row.stage}: RSS ${row.rssMib.toFixed(0)} MiB, external ${row.externalMib.toFixed(0)}, WebAssembly memory ${row.wasmMib.toFixed(0)} (resident ${row.wasmResidentMib.toFixed(0)}), compiled code resident ${row.codeMib.toFixed(0)}`,
      );
  }
}

const { values } = parseArgs({
  options: {
    child: { type: "string" },
    variant: { type: "string", multiple: true, default: ["current={}"] },
  },
});
if (values.child !== undefined) await child(JSON.parse(values.child) as Variant);
else parent(values.variant);
