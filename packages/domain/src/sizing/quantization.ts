// What one weight costs in memory. The published dtype (`torch_dtype`) sets the unquantised
// weights; `quantization_config` sets the layers' weights. Quantised formats carry scales beside
// the weights, counted here from each method's usual group size.
import { catalogErrorMap, formatIssues } from "../catalog/issues";
import { quantizationConfigSchema, type QuantizationConfig } from "./config-schema";
import type { FloatDtype, Quantization, QuantizedFormat } from "./types";

const DTYPE_NAMES: Record<string, FloatDtype> = {
  float32: "float32",
  float: "float32",
  fp32: "float32",
  bfloat16: "bfloat16",
  bf16: "bfloat16",
  float16: "float16",
  half: "float16",
  fp16: "float16",
};

export function parseDtype(name: string): FloatDtype | undefined {
  return DTYPE_NAMES[name.toLowerCase()];
}

/**
 * Bytes an engine holds for one unquantised weight. vLLM and SGLang load a float32 checkpoint at
 * 16 bits (their `--dtype auto`), so every float type costs 2 bytes on a card.
 */
export const FLOAT_WEIGHT_BYTES = 2;

/**
 * Bytes per quantised weight, scales included:
 * - fp8 and int8: one byte, with one scale per channel or per 128×128 block (under 0.1 %);
 * - int4 (AWQ, GPTQ, compressed-tensors): half a byte, plus a 16-bit scale and a 4-bit zero point
 *   per group of 128 weights, the group size these methods publish by default;
 * - nf4 (bitsandbytes): half a byte, plus a 32-bit absmax per block of 64 weights (its default,
 *   without double quantisation).
 */
export const QUANTIZED_WEIGHT_BYTES: Record<QuantizedFormat, number> = {
  fp8: 1,
  int8: 1,
  int4: 0.5 + (2 + 0.5) / 128,
  nf4: 0.5 + 4 / 64,
};

type QuantizationResult = { ok: true; quantization: Quantization } | { ok: false; error: string };

function refused(error: string): QuantizationResult {
  return { ok: false, error: `quantization_config: ${error}` };
}

function byBits(method: string, bits: number | null | undefined): QuantizationResult {
  if (bits === 4) return { ok: true, quantization: { method, format: "int4" } };
  if (bits === 8) return { ok: true, quantization: { method, format: "int8" } };
  return refused(`${method} with bits ${String(bits)} is not sized; sizing knows 4 and 8 bits`);
}

function bitsandbytes(config: QuantizationConfig): QuantizationResult {
  if (config.load_in_4bit === true || config._load_in_4bit === true)
    return { ok: true, quantization: { method: "bitsandbytes", format: "nf4" } };
  if (config.load_in_8bit === true || config._load_in_8bit === true)
    return { ok: true, quantization: { method: "bitsandbytes", format: "int8" } };
  return refused("bitsandbytes names neither load_in_4bit nor load_in_8bit");
}

/** compressed-tensors (llm-compressor's format): the first group's weights say the format. */
function compressedTensors(config: QuantizationConfig): QuantizationResult {
  const weights = Object.values(config.config_groups ?? {})[0]?.weights;
  if (!weights) return refused("compressed-tensors names no config_groups with weights");
  if (weights.num_bits === 8 && weights.type === "float")
    return { ok: true, quantization: { method: "compressed-tensors", format: "fp8" } };
  return byBits("compressed-tensors", weights.num_bits);
}

const KNOWN_METHODS = "fp8, fbgemm_fp8, awq, gptq, bitsandbytes, compressed-tensors";

/** Reads `quantization_config`; an unknown method is refused by name rather than guessed. */
export function parseQuantization(input: unknown): QuantizationResult {
  const parsed = quantizationConfigSchema.safeParse(input, { error: catalogErrorMap });
  if (!parsed.success) return refused(parsed.error.issues.flatMap(formatIssues).join("; "));
  const config = parsed.data;
  const method = config.quant_method.toLowerCase();
  switch (method) {
    case "fp8":
    case "fbgemm_fp8":
      return { ok: true, quantization: { method, format: "fp8" } };
    case "awq":
      return byBits(method, config.bits ?? 4);
    case "gptq":
      return byBits(method, config.bits);
    case "bitsandbytes":
      return bitsandbytes(config);
    case "compressed-tensors":
      return compressedTensors(config);
    default:
      return refused(`quant_method "${method}" is not one sizing knows (${KNOWN_METHODS})`);
  }
}
