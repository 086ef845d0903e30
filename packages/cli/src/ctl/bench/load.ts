// The load `ctl bench` sends: for each concurrency step, that many clients each sending streamed
// chat completions one after another until the step's requests are spent, timing every request
// from its start to its first content token and to its end.
import OpenAI from "openai";
import { summarizeStep, type RequestSample, type StepSummary } from "./summary";

export interface LoadTarget {
  /** An OpenAI-compatible base URL: a replica's engine, or the cluster's `/v1`. */
  baseUrl: string;
  key: string;
  model: string;
  /**
   * Ask the engine to ignore its end-of-sequence token so every answer is `maxTokens` long, as the
   * engines' own benchmarks do (vLLM, SGLang and llama.cpp take `ignore_eos`). Only for an engine
   * this cluster runs: a provider behind /v1 may refuse a field it does not know.
   */
  ignoreEos: boolean;
}

export interface StepShape {
  concurrency: number;
  requests: number;
  promptTokens: number;
  maxTokens: number;
}

/** Words most tokenizers count as one token each, so the prompt is about `tokens` long. */
const WORDS = ["the", "fleet", "serves", "a", "model", "on", "every", "card", "and", "node"];

/**
 * A prompt of about `tokens` tokens. Each request's starts with its own number, so an engine's
 * prefix cache cannot answer a request from the one before.
 */
export function promptOf(tokens: number, request: number): string {
  const words = [`request ${request}:`];
  for (let at = 0; words.length < tokens; at += 1) words.push(WORDS[at % WORDS.length] ?? "the");
  return words.join(" ");
}

function describeFailure(error: unknown): string {
  if (error instanceof OpenAI.APIError) return `${error.status ?? "no status"} ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

async function oneRequest(
  client: OpenAI,
  target: LoadTarget,
  shape: StepShape,
  request: number,
): Promise<RequestSample> {
  const startedMs = performance.now();
  let ttftMs: number | null = null;
  try {
    const stream = await client.chat.completions.create({
      model: target.model,
      messages: [{ role: "user", content: promptOf(shape.promptTokens, request) }],
      max_tokens: shape.maxTokens,
      stream: true,
      stream_options: { include_usage: true },
      ...(target.ignoreEos ? { ignore_eos: true } : {}),
    });
    let contentChunks = 0;
    let usage: OpenAI.CompletionUsage | null = null;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      if (chunk.choices[0]?.delta.content) {
        contentChunks += 1;
        ttftMs ??= performance.now() - startedMs;
      }
    }
    return {
      ok: true,
      ttftMs,
      latencyMs: performance.now() - startedMs,
      promptTokens: usage?.prompt_tokens ?? 0,
      // Without a usage chunk, each content chunk is taken as one token, as the engines stream.
      outputTokens: usage?.completion_tokens ?? contentChunks,
    };
  } catch (error) {
    const latencyMs = performance.now() - startedMs;
    return { ok: false, error: describeFailure(error), ttftMs, latencyMs, ...NO_TOKENS };
  }
}

const NO_TOKENS = { promptTokens: 0, outputTokens: 0 };

/** One step: `concurrency` clients share `requests` requests; the step's wall time is measured. */
export async function runStep(target: LoadTarget, shape: StepShape): Promise<StepSummary> {
  const client = new OpenAI({ apiKey: target.key, baseURL: target.baseUrl, maxRetries: 0 });
  const samples: RequestSample[] = [];
  let next = 0;
  const oneClient = async () => {
    while (next < shape.requests) {
      const request = next;
      next += 1;
      samples.push(await oneRequest(client, target, shape, request));
    }
  };
  const startedMs = performance.now();
  await Promise.all(Array.from({ length: shape.concurrency }, oneClient));
  return summarizeStep(shape.concurrency, samples, performance.now() - startedMs);
}
