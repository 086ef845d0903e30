// Calibrates CPU_DECODE_EFFICIENCY (packages/domain/src/explore/cpu-speed.ts) against the real
// llama.cpp: makes a llama model big enough that decoding is bound by memory reads (seeded random
// f32 weights, ~0.5 GiB), serves it with llama-server on every core, asks for 64 tokens, and
// compares the decode rate with the read rate the agent measures. Prints, per run and as the
// median, tokens/s × active weight bytes ÷ read rate: the share of the read rate llama.cpp reaches.
//
//   npx tsx bench/cpu-decode/calibrate.ts [--runs 3] [--smoke] [--llama-server PATH]
//
// --smoke: one run on a ~64 MiB model, for checking the script itself in well under a minute.
// Not part of `npm test`: it is a measurement of the machine it runs on (docs/sizing.md).
import { defaultEngineDir, llamaCppLayout, measureMemoryReadRate } from "@llmgw/agent";
import { tempDir, tinyLlamaGguf, type LlamaShape } from "@llmgw/testing";
import { spawn, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

// Where the agent (and `npm test`) builds llama-server: $XDG_CACHE_HOME/llmgw/engines.
const DEFAULT_SERVER = llamaCppLayout(defaultEngineDir(process.env)).executable;
/** 8 layers of 1024 × 4096: 134 M parameters, 537 MB of f32 (the vocabulary is ~270 tokens). */
const FULL: LlamaShape = {
  embeddingLength: 1024,
  blockCount: 8,
  feedForwardLength: 4096,
  headCount: 16,
};
const SMOKE: LlamaShape = {
  embeddingLength: 512,
  blockCount: 4,
  feedForwardLength: 2048,
  headCount: 8,
};
const PREDICT_TOKENS = 64;
const PORT = 18_917;

interface Run {
  tokensPerSecond: number;
  readBytesPerSecond: number;
  efficiency: number;
  load1m: number;
}

async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`llama-server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`llama-server did not answer /health within ${timeoutMs} ms`);
}

async function decodeRate(url: string, predictTokens = PREDICT_TOKENS): Promise<number> {
  const response = await fetch(`${url}/completion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      prompt: "hello the model",
      n_predict: predictTokens,
      ignore_eos: true,
    }),
  });
  const body = (await response.json()) as { timings?: { predicted_per_second?: number } };
  const rate = body.timings?.predicted_per_second;
  if (rate === undefined) throw new Error(`no timings in the answer: ${JSON.stringify(body)}`);
  return rate;
}

async function oneRun(serverPath: string, modelFile: string, weightBytes: number): Promise<Run> {
  const threads = availableParallelism();
  const args = ["-m", modelFile, "--threads", String(threads), "--port", String(PORT)];
  const child = spawn(serverPath, [...args, "--host", "127.0.0.1", "-c", "512"], {
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${PORT}`;
  try {
    await waitHealthy(url, child, 60_000);
    await decodeRate(url, 4); // warm: the weights paged in, the threads started
    const tokensPerSecond = await decodeRate(url);
    // Measured with llama-server idle, on the same cores, as the agent measures at start.
    const readBytesPerSecond = await measureMemoryReadRate({ workers: threads });
    const efficiency = (tokensPerSecond * weightBytes) / readBytesPerSecond;
    return { tokensPerSecond, readBytesPerSecond, efficiency, load1m: loadavg()[0] ?? 0 };
  } finally {
    child.kill("SIGTERM");
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "3" },
      smoke: { type: "boolean", default: false },
      "llama-server": { type: "string", default: DEFAULT_SERVER },
    },
  });
  const runs = values.smoke ? 1 : Number(values.runs);
  const model = tinyLlamaGguf(values.smoke ? SMOKE : FULL);
  const dir = await tempDir("cpu-decode");
  const modelFile = join(dir.path, "calibrate.gguf");
  await writeFile(modelFile, model);
  // Every weight is read once per token (a dense model: all parameters are active); the file's
  // size less its small header is the weights' bytes.
  const weightBytes = model.length;
  console.log(
    `model ${(weightBytes / 2 ** 20).toFixed(0)} MiB f32, ${availableParallelism()} threads, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const results: Run[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const result = await oneRun(values["llama-server"], modelFile, weightBytes);
    results.push(result);
    console.log(
      `run ${run}: ${result.tokensPerSecond.toFixed(1)} tokens/s, read ${(result.readBytesPerSecond / 1e9).toFixed(1)} GB/s, efficiency ${result.efficiency.toFixed(3)}, load ${result.load1m.toFixed(1)}`,
    );
  }
  console.log(`median efficiency ${median(results.map((r) => r.efficiency)).toFixed(3)}`);
  await dir.remove();
}

await main();
