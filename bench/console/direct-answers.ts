// The whole-fleet tRPC answers the console polls, asked of the server directly (no console proxy,
// no browser): each procedure alone, a few times, its body's size and the time to its last byte.
// This is the server's own cost per poll, apart from what a page's batch and the proxy add.
import { ADMIN_PASSWORD } from "@llmgw/testing";

/** The procedures whose answers grow with the fleet or that the slow pages wait for, with inputs. */
const FLEET_PROCEDURES: ReadonlyArray<[procedure: string, input?: unknown]> = [
  ["nodes.summary"],
  ["nodes.cards"],
  ["replicas.cards"],
  ["replicas.list", {}],
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

/** Asks each procedure `ASKS` times, one at a time. A procedure the server lacks is skipped. */
export async function timeDirectAnswers(apiUrl: string): Promise<DirectAnswer[]> {
  const token = await signIn(apiUrl);
  const answers: DirectAnswer[] = [];
  for (const [procedure, input] of FLEET_PROCEDURES) {
    const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const times: number[] = [];
    let bytes = 0;
    for (let ask = 0; ask < ASKS; ask += 1) {
      const startedMs = performance.now();
      const response = await fetch(`${apiUrl}/api/trpc/${procedure}${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await response.arrayBuffer();
      times.push(performance.now() - startedMs);
      bytes = body.byteLength;
      if (response.status === 404) break;
    }
    if (times.length === ASKS) answers.push({ procedure, bytes, medianMs: median(times) });
  }
  return answers;
}

export function directAnswersTable(answers: readonly DirectAnswer[]): string {
  return [
    "| tRPC procedure, asked of the server alone | KiB | median ms (5 asks) |",
    "| --- | ---: | ---: |",
    ...answers.map(
      (a) => `| \`${a.procedure}\` | ${(a.bytes / 1024).toFixed(1)} | ${a.medianMs.toFixed(0)} |`,
    ),
  ].join("\n");
}
