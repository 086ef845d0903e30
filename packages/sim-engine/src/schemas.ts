// Request bodies the simulator accepts, as loose as OpenAI's own (unknown fields are ignored), and
// as strict about the fields it reads.
import { z } from "zod";

const maxTokens = z.number().int().min(1).optional();

const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

export const chatRequestSchema = z.looseObject({
  model: z.string(),
  messages: z
    .array(
      z.looseObject({
        role: z.string(),
        content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
      }),
    )
    .min(1),
  max_tokens: maxTokens.nullable(),
  max_completion_tokens: maxTokens.nullable(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
});

const tokenIds = z.array(z.number().int());
const textOrTokens = z.union([
  z.string(),
  z.array(z.string()).min(1),
  tokenIds.min(1),
  z.array(tokenIds).min(1),
]);

export const completionRequestSchema = z.looseObject({
  model: z.string(),
  prompt: textOrTokens,
  max_tokens: maxTokens.nullable(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
});

export const embeddingRequestSchema = z.looseObject({
  model: z.string(),
  input: textOrTokens,
  encoding_format: z.enum(["float", "base64"]).optional(),
  dimensions: z.number().int().min(1).max(8192).optional(),
});

export const imageRequestSchema = z.looseObject({
  model: z.string().optional(),
  prompt: z.string().min(1),
  n: z.number().int().min(1).max(4).optional(),
  size: z
    .string()
    .regex(/^\d{1,4}x\d{1,4}$/, 'size must look like "256x256"')
    .optional(),
  response_format: z.enum(["b64_json", "url"]).optional(),
});

/** Prompts from either form; a list of token ids is one prompt, each id one token. */
export function promptTexts(input: z.infer<typeof textOrTokens>): string[] {
  if (typeof input === "string") return [input];
  const items = input as readonly (string | number | readonly number[])[];
  const ids = (list: readonly number[]): string => list.map((id) => `t${id}`).join(" ");
  if (items.every((item) => typeof item === "number")) return [ids(items)];
  return items.map((item) => (typeof item === "string" ? item : ids(item as number[])));
}
