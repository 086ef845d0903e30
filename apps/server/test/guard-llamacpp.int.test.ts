// The guard's judge on a real llama.cpp: a real agent on this machine serves the project's tiny
// llama GGUF with llama-server from the shared engine cache (built once by
// ensureLlamacppBuilt, as for llamacpp-real.int.test.ts), and a fail: closed prompt policy names it as its judge. The tiny model's
// weights are noise, so its verdicts mean nothing; the guard holds its answer to the verdict's shape
// with a GBNF grammar, and this test asserts the pipeline: the judge is asked on the real engine,
// its verdict read (never a failed judgment), the decision audited and timed, and requests refused
// with guard_judge_unavailable once that engine is stopped.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startCpuAgent,
  tempDir,
  tinyLlamaGguf,
  waitFor,
  enginePid,
  ensureLlamacppBuilt,
  LLAMACPP_BUILD_TIMEOUT_MS,
  LLAMACPP_ENGINE_DIR,
} from "@llmgw/testing";
import { startFleet, type Fleet } from "./harness";

const NODE = "it-judge-cpu";
const JUDGE = "judge-tiny";
/**
 * Generous: the tiny model judges in well under 100 ms alone, but this project's shared 2-core
 * machine runs at a load of 40 at times. The stopped judge is refused after this long.
 */
const BUDGET_MS = 30_000;
/** Texts no rule catches, so each one goes to the judge. */
const TEXTS = [
  "What is the weather like in Ankara today?",
  "Summarise the attached ticket about the nightly export.",
  "Write to ada@example.com about the failed backup.",
  "List three reasons a GPU node may drop out of the fleet.",
];

describe("the guard's judge on a real llama.cpp", () => {
  let fleet: Fleet;
  let dataDir: string;
  let key: string;

  const chat = (content: string) =>
    fetch(`${fleet.v1}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: JUDGE,
        messages: [{ role: "user", content }],
        max_tokens: 4,
        ignore_eos: true,
      }),
    });
  const metrics = async () => (await fetch(`${fleet.server.apiUrl}/metrics`)).text();
  const judgments = (text: string, outcome: string) =>
    Number(
      new RegExp(
        `llmgw_guard_judge_seconds_count\\{model="${JUDGE}",outcome="${outcome}"\\} (\\d+)`,
      ).exec(text)?.[1] ?? 0,
    );

  beforeAll(async () => {
    ensureLlamacppBuilt();
    const modelFile = join((await tempDir("it-judge-gguf")).path, "tiny-llama.gguf");
    writeFileSync(modelFile, tinyLlamaGguf());
    fleet = await startFleet({ env: { LLMGW_RESYNC_INTERVAL_MS: "300" } });
    dataDir = (await tempDir("it-judge-agent")).path;
    fleet.agents.set(NODE, {
      process: startCpuAgent(fleet.server, NODE, dataDir, LLAMACPP_ENGINE_DIR),
      dataDir,
    });
    await fleet.api.models.add.mutate({
      definition: {
        name: JUDGE,
        source: modelFile,
        profiles: [
          {
            ...{ name: "cpu", engine: "llamacpp", memory_gb: 1, cpu_cores: 1 },
            // The judge's question is about 600 byte tokens, past the tiny model's own 512.
            context_length: 2_048,
            args: ["--override-kv", "llama.context_length=int:2048"],
          },
        ],
        replicas: { min: 1, max: 1 },
      },
    });
    await fleet.readyReplicas(JUDGE, 1, 120_000);
    const created = await fleet.api.keys.create.mutate({ owner: "team:support", models: ["*"] });
    key = created.key;
    await fleet.api.guard.policies.add.mutate({
      name: "judged-prompts",
      appliesTo: [`key:${created.view.id}`],
      stages: ["prompt"],
      checks: ["injection", "pii"],
      judgeModel: JUDGE,
      fail: "closed",
      budgetMs: BUDGET_MS,
    });
  }, LLAMACPP_BUILD_TIMEOUT_MS + 180_000);

  afterAll(async () => fleet?.stop(Boolean(process.env.IT_DUMP)));

  it("asks the judge on llama-server and reads a verdict for every text", async () => {
    const statuses: number[] = [];
    for (const text of TEXTS) {
      const answer = await chat(text);
      statuses.push(answer.status);
      if (answer.status === 400) {
        // The judge said injection: withheld, naming the judge's reason, never the text.
        const { error } = (await answer.json()) as { error: { code: string; message: string } };
        expect(error.code).toBe("guard_withheld");
        expect(error.message).toMatch(/by guard policy judged-prompts: .*\(judge: [^)]*\)/);
      } else {
        // A 503 here is a failed judgment: its message says why.
        expect(`${answer.status} ${await answer.text()}`).toMatch(/^200 /);
      }
    }
    const text = await metrics();
    // Every judgment gave a verdict: none failed (the grammar held the noise to its shape).
    expect(judgments(text, "allow") + judgments(text, "injection")).toBe(TEXTS.length);
    expect(judgments(text, "failed")).toBe(0);
    expect(judgments(text, "injection")).toBe(statuses.filter((s) => s === 400).length);
    expect(text).toMatch(
      new RegExp(
        `llmgw_guard_judge_seconds_sum\\{model="${JUDGE}",outcome="(allow|injection)"\\} `,
      ),
    );
  });

  it("audits the judged decision with how long the judge took, and not the text", async () => {
    const rows = await waitFor(
      async () => {
        const found = await fleet.api.audit.list.query({ action: "guard.decision" });
        return found.length > 0 ? found : undefined;
      },
      { what: "a guard decision in the audit", timeoutMs: 30_000 },
    );
    for (const row of rows) {
      const details = row.details as { outcome: string; judgeMs?: number; reason: string };
      // The text with an address is redacted when the judge allows it, withheld when it does not.
      expect(["redacted", "withheld"]).toContain(details.outcome);
      expect(details.judgeMs).toBeGreaterThan(0);
      expect(details.judgeMs).toBeLessThan(BUDGET_MS);
      expect(row.target).toBe("prompt");
    }
    expect(JSON.stringify(rows)).not.toContain("ada@example.com");
  });

  it("refuses with guard_judge_unavailable while the judge's engine is stopped (fail: closed)", async () => {
    const pid = enginePid(dataDir);
    process.kill(pid, "SIGSTOP");
    try {
      const answer = await chat("Is the cluster healthy?");
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
      const { error } = (await answer.json()) as { error: { code: string } };
      expect(error.code).toBe("guard_judge_unavailable");
    } finally {
      process.kill(pid, "SIGCONT");
    }
    expect(judgments(await metrics(), "failed")).toBe(1);
  });
});
