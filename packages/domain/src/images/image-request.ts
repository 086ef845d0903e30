// OpenAI's `POST /v1/images/generations` body, read for a ComfyUI workflow: the prompt, a size
// ComfyUI's latent space takes, how many pictures, a seed, and pictures returned inline. A body
// that asks for something a workflow cannot give is refused with the field named.

/** Flux works on 16-pixel patches; other sizes are cropped or refused inside ComfyUI. */
const IMAGE_SIDE_MULTIPLE = 16;
const IMAGE_SIDE_MIN_PX = 256;
const IMAGE_SIDE_MAX_PX = 2_048;
export const IMAGES_PER_REQUEST_MAX = 4;
const PROMPT_CHARS_MAX = 32_000;
const DEFAULT_SIZE = "1024x1024";

export interface ImageRequest {
  prompt: string;
  widthPx: number;
  heightPx: number;
  count: number;
  /** The first picture's seed; each further picture takes the next. */
  seed: number;
}

export type ImageRequestCheck =
  { ok: true; request: ImageRequest } | { ok: false; field: string; why: string };

function refuse(field: string, why: string): ImageRequestCheck {
  return { ok: false, field, why };
}

function sideError(name: string, px: number): string | null {
  if (px < IMAGE_SIDE_MIN_PX || px > IMAGE_SIDE_MAX_PX)
    return `${name} ${px} is outside ${IMAGE_SIDE_MIN_PX}-${IMAGE_SIDE_MAX_PX} pixels`;
  if (px % IMAGE_SIDE_MULTIPLE !== 0)
    return `${name} ${px} is not a multiple of ${IMAGE_SIDE_MULTIPLE}`;
  return null;
}

/** "WxH" to pixels, each side bounded and a multiple of 16. */
export function parseImageSize(
  size: unknown,
): { ok: true; widthPx: number; heightPx: number } | { ok: false; why: string } {
  const match = typeof size === "string" ? /^(\d{1,5})x(\d{1,5})$/.exec(size) : null;
  if (!match)
    return { ok: false, why: 'size must be "WIDTHxHEIGHT" in pixels, such as "1024x1024"' };
  const widthPx = Number(match[1]);
  const heightPx = Number(match[2]);
  const why = sideError("width", widthPx) ?? sideError("height", heightPx);
  return why === null ? { ok: true, widthPx, heightPx } : { ok: false, why };
}

/** Reads the body; `randomSeed` is asked only when the client gave no seed. */
export function parseImageRequest(
  body: Record<string, unknown>,
  randomSeed: () => number,
): ImageRequestCheck {
  const { prompt, n, seed, response_format: format } = body;
  if (typeof prompt !== "string" || prompt.trim().length === 0)
    return refuse("prompt", "prompt must be a non-empty string");
  if (prompt.length > PROMPT_CHARS_MAX)
    return refuse("prompt", `prompt is longer than ${PROMPT_CHARS_MAX} characters`);
  const size = parseImageSize(body.size ?? DEFAULT_SIZE);
  if (!size.ok) return refuse("size", size.why);
  const count = n ?? 1;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1)
    return refuse("n", "n must be a whole number of pictures, at least 1");
  if (count > IMAGES_PER_REQUEST_MAX)
    return refuse("n", `n ${count} is above ${IMAGES_PER_REQUEST_MAX} pictures per request`);
  if (format !== undefined && format !== null && format !== "b64_json")
    return refuse(
      "response_format",
      format === "url"
        ? 'response_format "url" is not offered: pictures are returned inline; ask for "b64_json"'
        : 'response_format must be "b64_json"',
    );
  const chosenSeed = seed ?? randomSeed();
  if (
    typeof chosenSeed !== "number" ||
    !Number.isSafeInteger(chosenSeed) ||
    chosenSeed < 0 ||
    chosenSeed + count > Number.MAX_SAFE_INTEGER
  )
    return refuse("seed", "seed must be a whole number from 0 to 2^53 - 1");
  return {
    ok: true,
    request: {
      prompt,
      widthPx: size.widthPx,
      heightPx: size.heightPx,
      count,
      seed: chosenSeed,
    },
  };
}
