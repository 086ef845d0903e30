// /v1/embeddings: unit vectors that are a pure function of (model, input), so equal texts embed
// equally and a cache or router bug that mixes inputs shows up as a wrong vector. Answers base64
// (little-endian float32) when asked, as the official client does by default.
import type { RequestContext } from "./context";
import { parseBody, sendJson } from "./http-util";
import { hashSeed, seededRandom } from "./random";
import { embeddingRequestSchema, promptTexts } from "./schemas";
import { countPromptTokens } from "./text";

function embedText(model: string, text: string, dimensions: number): Float32Array {
  const random = seededRandom(hashSeed(`${model}\0${text}`));
  const vector = new Float32Array(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i += 1) {
    vector[i] = random() * 2 - 1;
    norm += (vector[i] ?? 0) ** 2;
  }
  const scale = 1 / Math.sqrt(norm || 1);
  for (let i = 0; i < dimensions; i += 1) vector[i] = (vector[i] ?? 0) * scale;
  return vector;
}

export async function handleEmbeddings(ctx: RequestContext): Promise<void> {
  const body = parseBody(embeddingRequestSchema, await ctx.readBody());
  ctx.requireModel(body.model);
  const texts = promptTexts(body.input);
  const dimensions = body.dimensions ?? ctx.config.embeddingDim;
  const data = texts.map((text, index) => {
    const vector = embedText(body.model, text, dimensions);
    const embedding =
      body.encoding_format === "base64"
        ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64")
        : Array.from(vector);
    return { object: "embedding", index, embedding };
  });
  const promptTokens = texts.reduce((total, text) => total + countPromptTokens(text), 0);
  ctx.load.promptTokensTotal += promptTokens;
  sendJson(
    ctx.res,
    200,
    {
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
    ctx.responseHeaders,
  );
}
