// /v1/chat/completions and /v1/completions: one paced generation, answered whole or streamed in
// OpenAI's chunk shapes (a role chunk first for chat; usage in a last chunk with no choices when
// stream_options.include_usage is set).
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { RequestContext } from "./context";
import { HttpError, parseBody, sendJson } from "./http-util";
import { chatRequestSchema, completionRequestSchema, promptTexts } from "./schemas";
import { SseWriter } from "./stream";
import { countPromptTokens, generateReply, type Reply } from "./text";
import { judgeReply, judgedText } from "./judge";
import { sayReply } from "./say";

interface Job {
  kind: "chat" | "completion";
  model: string;
  prompt: string;
  maxTokens: number | undefined;
  isStream: boolean;
  includeUsage: boolean;
  /** The text a guard judgment asks about; the simulated judge answers a verdict for it. */
  judged?: string;
}

export async function handleChat(ctx: RequestContext): Promise<void> {
  const body = parseBody(chatRequestSchema, await ctx.readBody());
  const prompt = body.messages.map((m) => `${m.role}: ${contentText(m.content)}`).join("\n");
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  const job: Job = {
    kind: "chat",
    model: body.model,
    prompt,
    maxTokens,
    isStream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
    judged: judgedText(body.messages.map((m) => ({ role: m.role, text: contentText(m.content) }))),
  };
  await runJob(ctx, job);
}

export async function handleCompletion(ctx: RequestContext): Promise<void> {
  const body = parseBody(completionRequestSchema, await ctx.readBody());
  const prompt = promptTexts(body.prompt).join("\n");
  const job: Job = {
    kind: "completion",
    model: body.model,
    prompt,
    maxTokens: body.max_tokens ?? undefined,
    isStream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
  };
  await runJob(ctx, job);
}

function contentText(
  content: string | readonly { text?: string | undefined }[] | null | undefined,
): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join(" ");
}

async function runJob(ctx: RequestContext, job: Job): Promise<void> {
  ctx.requireModel(job.model);
  const promptTokens = countPromptTokens(job.prompt);
  const limit = ctx.config.maxModelLen;
  if (limit !== undefined && promptTokens + (job.maxTokens ?? 0) > limit) {
    throw new HttpError(
      400,
      `This model's maximum context length is ${limit} tokens. However, you requested ${promptTokens + (job.maxTokens ?? 0)} tokens (${promptTokens} in the messages, ${job.maxTokens ?? 0} in the completion).`,
      "invalid_request_error",
      "context_length_exceeded",
      "messages",
    );
  }
  // A simulated adapter answers differently from its base model: its name seeds the words too.
  const seedText = job.model === ctx.config.model ? job.prompt : `${job.model}\n${job.prompt}`;
  const reply = job.judged
    ? judgeReply(job.judged)
    : (sayReply(job.prompt, job.maxTokens) ?? generateReply(seedText, job.maxTokens));
  const slot = await ctx.load.admit(promptTokens, ctx.signal);
  let outcome: "stop" | "length" | "abort" = "abort";
  try {
    if (job.isStream) await streamReply(ctx, job, reply, promptTokens, slot.addGeneratedTokens);
    else {
      await sleep(ctx.config.ttftMs + reply.tokens.length * tokenIntervalMs(ctx), undefined, {
        signal: ctx.signal,
      });
      slot.addGeneratedTokens(reply.tokens.length);
      sendJson(ctx.res, 200, wholeResponse(job, reply, promptTokens), ctx.responseHeaders);
    }
    outcome = reply.finishReason;
  } finally {
    slot.release(outcome);
  }
}

function tokenIntervalMs(ctx: RequestContext): number {
  return 1000 / ctx.config.tokensPerSecond;
}

function usage(promptTokens: number, completionTokens: number) {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

function wholeResponse(job: Job, reply: Reply, promptTokens: number): unknown {
  const text = reply.tokens.join("");
  const head = {
    id: responseId(job),
    created: nowSeconds(),
    model: job.model,
    system_fingerprint: null,
  };
  const choice =
    job.kind === "chat"
      ? {
          index: 0,
          message: { role: "assistant", content: text, refusal: null },
          logprobs: null,
          finish_reason: reply.finishReason,
        }
      : { index: 0, text, logprobs: null, finish_reason: reply.finishReason };
  return {
    ...head,
    object: job.kind === "chat" ? "chat.completion" : "text_completion",
    choices: [choice],
    usage: usage(promptTokens, reply.tokens.length),
  };
}

async function streamReply(
  ctx: RequestContext,
  job: Job,
  reply: Reply,
  promptTokens: number,
  onTokens: (n: number) => void,
): Promise<void> {
  const sse = new SseWriter(ctx.res, ctx.config.faults.dropStreamAfterChunks, ctx.responseHeaders);
  const head = {
    id: responseId(job),
    object: job.kind === "chat" ? "chat.completion.chunk" : "text_completion",
    created: nowSeconds(),
    model: job.model,
    system_fingerprint: null,
  };
  const usageField = job.includeUsage ? { usage: null } : {};
  const chunk = (
    text: string | undefined,
    finishReason: string | null,
    isFirst = false,
  ): unknown => {
    const choice =
      job.kind === "chat"
        ? {
            index: 0,
            delta:
              text === undefined
                ? {}
                : isFirst
                  ? { role: "assistant", content: text }
                  : { content: text },
            logprobs: null,
            finish_reason: finishReason,
          }
        : { index: 0, text: text ?? "", logprobs: null, finish_reason: finishReason };
    return { ...head, choices: [choice], ...usageField };
  };
  await sleep(ctx.config.ttftMs, undefined, { signal: ctx.signal });
  if (job.kind === "chat") await sse.send(chunk("", null, true));
  for (const [index, token] of reply.tokens.entries()) {
    if (index > 0) await sleep(tokenIntervalMs(ctx), undefined, { signal: ctx.signal });
    onTokens(1);
    await sse.send(chunk(token, null));
  }
  await sse.send(chunk(undefined, reply.finishReason));
  if (job.includeUsage)
    await sse.send({ ...head, choices: [], usage: usage(promptTokens, reply.tokens.length) });
  await sse.done();
}

function responseId(job: Job): string {
  return `${job.kind === "chat" ? "chatcmpl" : "cmpl"}-${randomUUID().replace(/-/g, "")}`;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
