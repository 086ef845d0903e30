// What one agent connection costs the server in memory, by layer: `tsx memory/tls-sockets.ts
// [--sockets 2000] [--variants tcp,tls,ws,wss]` starts a server child per variant, opens N
// long-lived client connections to it from this process, each sending a Register-sized frame
// (answered with a small one) then a Heartbeat-sized one every 2 s, and prints the server's growth
// per connection after a forced garbage collection: RSS, V8's heap, external memory, and the
// native rest (glibc's main heap among it). Variants: `tcp` (plain sockets), `tls` (TLS with a
// client certificate, as the agent port asks it, no WebSocket), `ws` (WebSocket, no TLS), `wss`
// (https + ws with client certificates, as the agent port). A TLS variant ending in `-anon` asks
// for no client certificate; one ending in `-tls12` stops at TLS 1.2. `wss-port` is `wss` reached
// the agent port's way: a plain TCP server with `pauseOnConnect` hands each socket to the https
// server by `emit("connection")` (apps/server/src/agents/agent-server.ts).
// Steps toward the real server, for the wss variants: `--settle S` beats S seconds before the
// reading (6 by default); `--join` first joins every connection as the bench's agents do (an HTTPS
// POST of a CSR on a connection of its own, signed by the server child with the cluster CA), all
// joins before the first WebSocket; `--frames sim` sends the simulated H100 ×8 node's real
// Register and Heartbeat envelopes (apps/agent's simulation) instead of filler of their size;
// `--decode` has the server child decode each frame as an Envelope. `--malloc jemalloc` runs the
// server child on the system's jemalloc (LD_PRELOAD, as the release's launcher); `--malloc-conf`
// passes jemalloc options (MALLOC_CONF); `--stats DIR` writes jemalloc's statistics with its bins
// and large classes (malloc_stats_print through gdb) and the server child's smaps at both readings
// of each variant.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { connect as netConnect, createServer as createNetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { connect as tlsConnect, createServer as createTlsServer } from "node:tls";
import { parseArgs } from "node:util";
import { createKeyAndCsr, ensureServerPki, readServerCa, signNodeCsr } from "@llmgw/pki";
import { decodeEnvelope } from "@llmgw/proto";
import WebSocket, { WebSocketServer } from "ws";
import { anonymousSplit } from "./sample";
import { framesFor, joinOne, signJoin, type ClientTls, type Frames } from "./tls-sockets-steps";

const CONNECTS_AT_ONCE = 32;
/** Connections heartbeat this long before a reading by default (three beats of 2 s). */
const SETTLE_S_DEFAULT = 6;
const JEMALLOC = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2";
const HEARTBEAT_INTERVAL_MS = 2_000;
const ACK_BYTES = 100;

interface Reading {
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  /** Resident bytes of glibc's main heap (`[heap]` in /proc/self/smaps). */
  mallocHeapBytes: number;
  /** Anonymous resident bytes at V8's addresses and from the top (malloc's arenas): sample.ts. */
  v8PagesBytes: number;
  mmapPagesBytes: number;
}

function mallocHeapBytes(): number {
  const smaps = readFileSync("/proc/self/smaps", "utf8");
  const at = smaps.indexOf("[heap]");
  if (at < 0) return 0;
  const rss = /^Rss:\s+(\d+) kB$/m.exec(smaps.slice(at));
  return Number(rss?.[1] ?? 0) * 1024;
}

function reading(): Reading {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  const split = anonymousSplit("self");
  return {
    rssBytes: usage.rss,
    heapUsedBytes: usage.heapUsed,
    heapTotalBytes: usage.heapTotal,
    externalBytes: usage.external,
    mallocHeapBytes: mallocHeapBytes(),
    v8PagesBytes: split.v8Kib * 1024,
    mmapPagesBytes: split.mmapKib * 1024,
  };
}

/** The server side: listens, reads and discards, prints a reading for each "read" line on stdin. */
function serve(variant: string, home: string, decode: boolean): void {
  const pki = join(home, "pki");
  const tls = {
    ca: readFileSync(join(pki, "ca.crt")),
    cert: readFileSync(join(pki, "server.crt")),
    key: readFileSync(join(pki, "server.key")),
    // `-anon`: no client certificate asked for; `-tls12`: TLS 1.2 at most.
    requestCert: !variant.endsWith("-anon"),
    rejectUnauthorized: false,
    minVersion: "TLSv1.2" as const,
    ...(variant.endsWith("-tls12") ? { maxVersion: "TLSv1.2" as const } : {}),
  };
  // Reads and discards; the first frame is answered, as a RegisterAck answers a Register.
  const discard = (socket: Socket) => {
    socket.once("data", () => socket.write(Buffer.alloc(ACK_BYTES, 3)));
    socket.on("data", () => undefined);
    socket.on("error", () => undefined);
  };
  const server =
    variant === "tcp"
      ? createNetServer(discard)
      : variant.startsWith("tls")
        ? createTlsServer(tls, discard)
        : variant === "ws"
          ? createHttpServer()
          : createHttpsServer(tls, (req, res) => void signJoin(home, req, res));
  if (variant.startsWith("ws")) {
    const wss = new WebSocketServer({
      server: server as ReturnType<typeof createHttpServer>,
      perMessageDeflate: false,
    });
    const read = decode ? (data: Buffer) => void decodeEnvelope(data) : () => undefined;
    wss.on("connection", (ws) => {
      ws.once("message", () => ws.send(Buffer.alloc(ACK_BYTES, 3)));
      ws.on("message", read);
      ws.on("error", () => undefined);
    });
  }
  // The agent port's way in: connections stay paused until handed to the https server.
  const listener =
    variant === "wss-port"
      ? createNetServer({ pauseOnConnect: true }, (socket) => {
          server.emit("connection", socket);
          socket.resume();
        })
      : server;
  listener.listen(0, "127.0.0.1", () => {
    const address = listener.address();
    console.log(`listening on ${typeof address === "object" && address ? address.port : 0}`);
  });
  createInterface({ input: process.stdin }).on("line", () => {
    setTimeout(() => console.log(JSON.stringify(reading())), 100);
  });
}

async function openOne(
  variant: string,
  port: number,
  tls: ClientTls,
  frames: Frames,
): Promise<() => void> {
  if (variant.startsWith("ws")) {
    const scheme = variant === "ws" ? "ws" : "wss";
    const ws = new WebSocket(`${scheme}://127.0.0.1:${port}/`, {
      ...(scheme === "wss" ? tls : {}),
      perMessageDeflate: false,
    });
    ws.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    ws.send(frames.register());
    const timer = setInterval(() => ws.send(frames.heartbeat()), HEARTBEAT_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      ws.terminate();
    };
  }
  const socket =
    variant === "tcp"
      ? netConnect(port, "127.0.0.1")
      : tlsConnect({ port, host: "127.0.0.1", ...tls, servername: "localhost" });
  socket.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once(variant === "tcp" ? "connect" : "secureConnect", () => resolve());
    socket.once("error", reject);
  });
  socket.write(frames.register());
  const timer = setInterval(() => socket.write(frames.heartbeat()), HEARTBEAT_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    socket.destroy();
  };
}

interface Steps {
  settleMs: number;
  join: boolean;
  frames: string;
  decode: boolean;
  env: Record<string, string>;
  statsDir: string | undefined;
}

/** jemalloc's statistics of a process on it, as its malloc_stats_print writes them to stderr. */
async function jemallocStats(pid: number, stderr: { text: string }): Promise<string> {
  const mark = stderr.text.length;
  spawnSync("gdb", [
    "-p",
    String(pid),
    "-batch",
    "-ex",
    'call (void)malloc_stats_print((void*)0, (void*)0, "gdaxeh")',
  ]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  return stderr.text.slice(mark);
}

async function measure(
  variant: string,
  home: string,
  sockets: number,
  tls: ClientTls,
  steps: Steps,
) {
  const child = spawn(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      "tsx",
      import.meta.filename,
      "--serve",
      variant,
      "--home",
      home,
      ...(steps.decode ? ["--decode"] : []),
    ],
    { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...steps.env } },
  );
  const stderr = { text: "" };
  child.stderr.on("data", (chunk: Buffer) => {
    stderr.text += chunk.toString("utf8");
    if (!steps.statsDir) process.stderr.write(chunk);
  });
  const stats = async (name: string) => {
    if (!steps.statsDir || child.pid === undefined) return;
    mkdirSync(steps.statsDir, { recursive: true });
    const text = await jemallocStats(child.pid, stderr);
    writeFileSync(join(steps.statsDir, `${variant}-${name}.stats`), text);
    writeFileSync(
      join(steps.statsDir, `${variant}-${name}.smaps`),
      readFileSync(`/proc/${child.pid}/smaps`, "utf8"),
    );
  };
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => String((await lines.next()).value);
  const port = Number(/listening on (\d+)/.exec(await next())?.[1]);
  const read = async (): Promise<Reading> => {
    child.stdin.write("read\n");
    return JSON.parse(await next()) as Reading;
  };
  // A few connections first, so what is made once (TLS context, code) is not counted per socket.
  const open = (at: number) => openOne(variant, port, tls, framesFor(steps.frames, at));
  if (steps.join) await Promise.all(Array.from({ length: 16 }, () => joinOne(port, tls)));
  const warm = await Promise.all(Array.from({ length: 16 }, (_, at) => open(sockets + at)));
  await new Promise((resolve) => setTimeout(resolve, SETTLE_S_DEFAULT * 1000));
  const before = await read();
  await stats("before");
  const closers: Array<() => void> = [...warm];
  const eachOnce = async (work: (at: number) => Promise<void>) => {
    let next2 = 0;
    await Promise.all(
      Array.from({ length: CONNECTS_AT_ONCE }, async () => {
        for (let at = next2++; at < sockets; at = next2++) await work(at);
      }),
    );
  };
  if (steps.join) await eachOnce(() => joinOne(port, tls));
  await eachOnce(async (at) => void closers.push(await open(at)));
  await new Promise((resolve) => setTimeout(resolve, steps.settleMs));
  const after = await read();
  await stats("after");
  for (const close of closers) close();
  child.kill();
  const per = (key: keyof Reading) => (after[key] - before[key]) / sockets / 1024;
  const rest =
    (after.rssBytes -
      after.heapTotalBytes -
      after.externalBytes -
      (before.rssBytes - before.heapTotalBytes - before.externalBytes)) /
    sockets /
    1024;
  return {
    variant,
    rss: per("rssBytes"),
    heapUsed: per("heapUsedBytes"),
    heapTotal: per("heapTotalBytes"),
    external: per("externalBytes"),
    mallocHeap: per("mallocHeapBytes"),
    v8Pages: per("v8PagesBytes"),
    mmapPages: per("mmapPagesBytes"),
    rest,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      serve: { type: "string" },
      home: { type: "string" },
      sockets: { type: "string", default: "2000" },
      variants: { type: "string", default: "tcp,tls,ws,wss" },
      settle: { type: "string", default: String(SETTLE_S_DEFAULT) },
      join: { type: "boolean", default: false },
      frames: { type: "string", default: "filler" },
      decode: { type: "boolean", default: false },
      malloc: { type: "string", default: "system" },
      "malloc-conf": { type: "string" },
      stats: { type: "string" },
    },
  });
  if (values.serve) return serve(values.serve, values.home ?? "", values.decode);
  const home = mkdtempSync(join(tmpdir(), "llmgw-tls-sockets-"));
  await ensureServerPki(home);
  const ca = readServerCa(home);
  const client = await createKeyAndCsr("sim-tls-sockets");
  const signed = await signNodeCsr(ca, client.csrPem, { nodeId: "sim-tls-sockets", validDays: 1 });
  const tls = { ca: ca.certPem, cert: signed.certPem, key: client.keyPem, csrPem: client.csrPem };
  const sockets = Number(values.sockets);
  const env: Record<string, string> = {};
  if (values.malloc === "jemalloc") env.LD_PRELOAD = JEMALLOC;
  if (values["malloc-conf"]) env.MALLOC_CONF = values["malloc-conf"];
  const steps: Steps = {
    settleMs: Number(values.settle) * 1000,
    join: values.join,
    frames: values.frames,
    decode: values.decode,
    env,
    statsDir: values.stats,
  };
  if (steps.join && !values.variants.split(",").every((v) => v.startsWith("wss")))
    throw new Error("--join needs wss variants (the join is an HTTPS request)");
  console.log(
    "| variant | RSS KiB / socket | V8 heap used | V8 heap reserved | external | rest (native) | of which glibc [heap] | anonymous at V8's addresses | anonymous from the top |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const variant of values.variants.split(",")) {
    const r = await measure(variant, home, sockets, tls, steps);
    const f = (value: number) => value.toFixed(1);
    console.log(
      `| ${r.variant} | ${f(r.rss)} | ${f(r.heapUsed)} | ${f(r.heapTotal)} | ${f(r.external)} | ${f(r.rest)} | ${f(r.mallocHeap)} | ${f(r.v8Pages)} | ${f(r.mmapPages)} |`,
    );
  }
}

void main();
