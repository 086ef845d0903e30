// What one agent connection costs the server in memory, by layer: `tsx memory/tls-sockets.ts
// [--sockets 2000] [--variants tcp,tls,ws,wss]` starts a server child per variant, opens N
// long-lived client connections to it from this process, each sending a Register-sized frame
// (answered with a small one) then a Heartbeat-sized one every 2 s, and prints the server's growth
// per connection after a forced garbage collection: RSS, V8's heap, external memory, and the
// native rest (glibc's main heap among it). Variants: `tcp` (plain sockets), `tls` (TLS with a
// client certificate, as the agent port asks it, no WebSocket), `ws` (WebSocket, no TLS), `wss`
// (https + ws with client certificates, as the agent port). A TLS variant ending in `-anon` asks
// for no client certificate; one ending in `-tls12` stops at TLS 1.2.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { connect as netConnect, createServer as createNetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { connect as tlsConnect, createServer as createTlsServer } from "node:tls";
import { parseArgs } from "node:util";
import { createKeyAndCsr, ensureServerPki, readServerCa, signNodeCsr } from "@llmgw/pki";
import WebSocket, { WebSocketServer } from "ws";

const REGISTER_BYTES = 3_000;
const HEARTBEAT_BYTES = 700;
const CONNECTS_AT_ONCE = 32;
/** Connections heartbeat this long before a reading (three beats of 2 s). */
const SETTLE_MS = 6_000;
const HEARTBEAT_INTERVAL_MS = 2_000;
const ACK_BYTES = 100;

interface Reading {
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  /** Resident bytes of glibc's main heap (`[heap]` in /proc/self/smaps). */
  mallocHeapBytes: number;
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
  return {
    rssBytes: usage.rss,
    heapUsedBytes: usage.heapUsed,
    heapTotalBytes: usage.heapTotal,
    externalBytes: usage.external,
    mallocHeapBytes: mallocHeapBytes(),
  };
}

/** The server side: listens, reads and discards, prints a reading for each "read" line on stdin. */
function serve(variant: string, home: string): void {
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
          : createHttpsServer(tls);
  if (variant.startsWith("ws")) {
    const wss = new WebSocketServer({
      server: server as ReturnType<typeof createHttpServer>,
      perMessageDeflate: false,
    });
    wss.on("connection", (ws) => {
      ws.once("message", () => ws.send(Buffer.alloc(ACK_BYTES, 3)));
      ws.on("message", () => undefined);
      ws.on("error", () => undefined);
    });
  }
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    console.log(`listening on ${typeof address === "object" && address ? address.port : 0}`);
  });
  createInterface({ input: process.stdin }).on("line", () => {
    setTimeout(() => console.log(JSON.stringify(reading())), 100);
  });
}

interface ClientTls {
  ca: string;
  cert: string;
  key: string;
}

async function openOne(variant: string, port: number, tls: ClientTls): Promise<() => void> {
  const register = Buffer.alloc(REGISTER_BYTES, 1);
  const heartbeat = Buffer.alloc(HEARTBEAT_BYTES, 2);
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
    ws.send(register);
    const timer = setInterval(() => ws.send(heartbeat), HEARTBEAT_INTERVAL_MS);
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
  socket.write(register);
  const timer = setInterval(() => socket.write(heartbeat), HEARTBEAT_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    socket.destroy();
  };
}

async function measure(variant: string, home: string, sockets: number, tls: ClientTls) {
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", import.meta.filename, "--serve", variant, "--home", home],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => String((await lines.next()).value);
  const port = Number(/listening on (\d+)/.exec(await next())?.[1]);
  const read = async (): Promise<Reading> => {
    child.stdin.write("read\n");
    return JSON.parse(await next()) as Reading;
  };
  // A few connections first, so what is made once (TLS context, code) is not counted per socket.
  const warm = await Promise.all(Array.from({ length: 16 }, () => openOne(variant, port, tls)));
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const before = await read();
  const closers: Array<() => void> = [...warm];
  let next2 = 0;
  await Promise.all(
    Array.from({ length: CONNECTS_AT_ONCE }, async () => {
      for (let at = next2++; at < sockets; at = next2++)
        closers.push(await openOne(variant, port, tls));
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const after = await read();
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
    },
  });
  if (values.serve) return serve(values.serve, values.home ?? "");
  const home = mkdtempSync(join(tmpdir(), "llmgw-tls-sockets-"));
  await ensureServerPki(home);
  const ca = readServerCa(home);
  const client = await createKeyAndCsr("sim-tls-sockets");
  const signed = await signNodeCsr(ca, client.csrPem, { nodeId: "sim-tls-sockets", validDays: 1 });
  const tls = { ca: ca.certPem, cert: signed.certPem, key: client.keyPem };
  const sockets = Number(values.sockets);
  console.log(
    "| variant | RSS KiB / socket | V8 heap used | V8 heap reserved | external | rest (native) | of which glibc [heap] |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const variant of values.variants.split(",")) {
    const r = await measure(variant, home, sockets, tls);
    const f = (value: number) => value.toFixed(1);
    console.log(
      `| ${r.variant} | ${f(r.rss)} | ${f(r.heapUsed)} | ${f(r.heapTotal)} | ${f(r.external)} | ${f(r.rest)} | ${f(r.mallocHeap)} |`,
    );
  }
}

void main();
