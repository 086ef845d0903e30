// A model description that arrives already made: a node reads a GGUF header itself (the header
// can be megabytes, the description a few hundred bytes) and sends what describeGguf made of it.
// The control plane trusts none of it until it has the shape and bounds a real model has.
import { z } from "zod";
import { messageOf } from "../message-of";
import type { DescribeResult } from "./describe";
import type { ModelDescription } from "./types";

// Generous bounds: the largest published models are far inside them; a value past them is an error.
const count = (max: number) => z.number().int().min(0).max(max);
const positive = (max: number) => z.number().int().min(1).max(max);
const MAX_PARAMETERS = 1e14;

const noteSchema = z
  .object({
    code: z.string().regex(/^sizing\.[a-z_]{1,60}$/),
    params: z.record(z.string().max(60), z.union([z.string().max(200), z.number()])),
    text: z.string().max(500),
  })
  .strict();

const descriptionSchema = z
  .object({
    source: z.literal("gguf"),
    architecture: z.string().min(1).max(60),
    layers: positive(1_000),
    hiddenSize: positive(1_000_000),
    attentionHeads: positive(10_000),
    kvHeads: positive(10_000),
    headDim: positive(100_000),
    vocabSize: count(10_000_000),
    intermediateSize: count(10_000_000),
    experts: z
      .object({
        count: positive(100_000),
        perToken: positive(100_000),
        intermediateSize: count(10_000_000),
        sharedCount: count(100_000),
        sharedIntermediateSize: count(10_000_000),
        denseLayers: count(1_000),
      })
      .strict()
      .optional(),
    contextTokensTrained: positive(100_000_000).optional(),
    tiedEmbeddings: z.boolean(),
    dtype: z.enum(["float32", "bfloat16", "float16"]),
    quantization: z
      .object({ method: z.string().min(1).max(60), format: z.enum(["fp8", "int8", "int4", "nf4"]) })
      .strict()
      .optional(),
    ggufFileType: z.string().max(60).optional(),
    parameters: z
      .object({
        total: z.number().min(0).max(MAX_PARAMETERS),
        active: z.number().min(0).max(MAX_PARAMETERS),
        vision: z.number().min(0).max(MAX_PARAMETERS),
        isApproximate: z.boolean(),
      })
      .strict(),
    weightBytesExact: z
      .number()
      .min(0)
      .max(MAX_PARAMETERS * 4)
      .optional(),
    notes: z.array(noteSchema).max(20),
  })
  .strict();

/** A description a node made from a GGUF header, checked; refused with what was wrong. */
export function parseGgufDescription(json: string): DescribeResult {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, errors: [`not JSON (${messageOf(error)})`] };
  }
  const parsed = descriptionSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      errors: parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join(".") || "the description"}: ${issue.message}`),
    };
  const description: ModelDescription = parsed.data as ModelDescription;
  if (description.parameters.active > description.parameters.total)
    return { ok: false, errors: ["parameters.active: more than parameters.total"] };
  return { ok: true, description };
}
