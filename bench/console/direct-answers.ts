// The whole-fleet tRPC answers the console polls, asked of the server directly (no console proxy,
// no browser): each procedure alone, a few times, its body's size and the time to its last byte.
// This is the server's own cost per poll, apart from what a page's batch and the proxy add. Each is
// also asked through the console's proxy alone (what the relay adds), and the cluster page's
// opening calls are sent all at once, as the page sends them, both ways (what answering them
// together adds): which of the three holds a page's answers.
import { ADMIN_PASSWORD } from "@llmgw/testing";

/** The first window of a table the console asks the server to sort (as the pages open it). */
const FIRST_WINDOW = { offset: 0, limit: 200 };

/** The procedures whose answers grow with the fleet or that the slow pages wait for, with inputs. */
const FLEET_PROCEDURES: ReadonlyArray<[procedure: string, input?: unknown]> = [
  ["nodes.summary"],
  ["nodes.page", { filter: "", sort: { key: "name", direction: "asc" }, ...FIRST_WINDOW }],
  ["nodes.cards"],
  ["replicas.cards"],
  ["replicas.list", {}],
  ["replicas.page", { sort: { key: "model", direction: "asc" }, ...FIRST_WINDOW }],
  ["facility.list"],
  ["status.get"],
  ["replicas.idle"],
  ["models.list"],
  ["quotas.list"],
];
const ASKS = 5;

export interface DirectAnswer {
  procedure: string;
  bytes: number;
  /** Median of the asks. */
  medianMs: number;
  /** The same asked through the console's proxy (`/api/trpc` of `llmgw web`), alone. */
  proxyMedianMs: number;
}

/** The cluster page's opening requests, as its tRPC links send them (src/lib/trpc-links.ts). */
const CLUSTER_OPENING = [
  "auth.me",
  "nodes.cards",
  "replicas.cards",
  "models.list,status.get,replicas.idle",
];

export interface TogetherAnswer {
  request: string;
  /** Median time to the last byte with all the page's requests sent at once: direct, proxied. */
  directMs: number;
  proxyMs: number;
}

async function signIn(apiUrl: string): Promise<string> {
  const response = await fetch(`${apiUrl}/api/trpc/auth.login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }),
  });
  const body = (await response.json()) as { result?: { data?: { token?: string } } };
  const token = body.result?.data?.token;
  if (!token) throw new Error(`signing in for the direct answers failed: ${response.status}`);
  return token;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** One GET to the last byte of its body: status, size and milliseconds. */
async function ask(url: string, token: string) {
  const startedMs = performance.now();
  // Asks for compression as a browser does: the console's server compresses what it relays.
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, "accept-encoding": "gzip, deflate, br" },
  });
  const body = await response.arrayBuffer();
  return { status: response.status, bytes: body.byteLength, ms: performance.now() - startedMs };
}

/** `path` (procedures, comma-joined for a batch) with tRPC's inputs, as the console asks it. */
function trpcPath(procedures: string, input?: unknown): string {
  const names = procedures.split(",");
  if (names.length > 1) {
    const inputs = Object.fromEntries(names.map((_, i) => [i, {}]));
    return `${procedures}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
  }
  return input === undefined
    ? procedures
    : `${procedures}?input=${encodeURIComponent(JSON.stringify(input))}`;
}

/**
 * Asks each procedure `ASKS` times, one at a time, of the server and then through the console's
 * proxy. A procedure the server lacks is skipped.
 */
export async function timeDirectAnswers(
  apiUrl: string,
  consoleUrl: string,
): Promise<DirectAnswer[]> {
  const token = await signIn(apiUrl);
  const answers: DirectAnswer[] = [];
  for (const [procedure, input] of FLEET_PROCEDURES) {
    const path = `/api/trpc/${trpcPath(procedure, input)}`;
    const direct: number[] = [];
    const proxied: number[] = [];
    let bytes = 0;
    for (let i = 0; i < ASKS; i += 1) {
      const answer = await ask(`${apiUrl}${path}`, token);
      if (answer.status === 404) break;
      direct.push(answer.ms);
      bytes = answer.bytes;
    }
    if (direct.length < ASKS) continue;
    for (let i = 0; i < ASKS; i += 1) proxied.push((await ask(`${consoleUrl}${path}`, token)).ms);
    answers.push({ procedure, bytes, medianMs: median(direct), proxyMedianMs: median(proxied) });
  }
  return answers;
}

/** The cluster page's opening requests sent at once, `ASKS` rounds, of the server and proxied. */
export async function timeTogether(apiUrl: string, consoleUrl: string): Promise<TogetherAnswer[]> {
  const token = await signIn(apiUrl);
  const round = async (base: string) =>
    Promise.all(
      CLUSTER_OPENING.map(
        async (request) => (await ask(`${base}/api/trpc/${trpcPath(request)}`, token)).ms,
      ),
    );
  const direct: number[][] = [];
  const proxied: number[][] = [];
  for (let i = 0; i < ASKS; i += 1) direct.push(await round(apiUrl));
  for (let i = 0; i < ASKS; i += 1) proxied.push(await round(consoleUrl));
  return CLUSTER_OPENING.map((request, index) => ({
    request,
    directMs: median(direct.map((times) => times[index] ?? NaN)),
    proxyMs: median(proxied.map((times) => times[index] ?? NaN)),
  }));
}

export function togetherTable(answers: readonly TogetherAnswer[]): string {
  return [
    "| the cluster page's opening requests, sent at once | direct, median ms | through the proxy, median ms |",
    "| --- | ---: | ---: |",
    ...answers.map(
      (a) => `| \`${a.request}\` | ${a.directMs.toFixed(0)} | ${a.proxyMs.toFixed(0)} |`,
    ),
  ].join("\n");
}

export function directAnswersTable(answers: readonly DirectAnswer[]): string {
  return [
    "| tRPC procedure, asked alone | KiB | server, median ms (5 asks) | through the console's proxy, median ms |",
    "| --- | ---: | ---: | ---: |",
    ...answers.map(
      (a) =>
        `| \`${a.procedure}\` | ${(a.bytes / 1024).toFixed(1)} | ${a.medianMs.toFixed(0)} | ${a.proxyMedianMs.toFixed(0)} |`,
    ),
  ].join("\n");
}
