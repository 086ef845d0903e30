// /v1/images/generations: a small picture (a gradient whose colours come from the prompt) encoded as
// a real PNG, returned as b64_json or as a data: URL, since the simulator hosts no files.
import type { RequestContext } from "./context";
import { HttpError, parseBody, sendJson } from "./http-util";
import { encodePng } from "./png";
import { hashSeed, seededRandom } from "./random";
import { imageRequestSchema } from "./schemas";

const SIDE_MAX = 1024;

export function renderPicture(
  prompt: string,
  index: number,
  width: number,
  height: number,
): Buffer {
  const random = seededRandom(hashSeed(`${index}\0${prompt}`));
  const [r0, g0, b0, r1, g1, b1] = Array.from({ length: 6 }, () => Math.floor(random() * 256));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const t = (x + y) / Math.max(1, width + height - 2);
      const offset = (y * width + x) * 3;
      rgb[offset] = Math.round((r0 ?? 0) * (1 - t) + (r1 ?? 0) * t);
      rgb[offset + 1] = Math.round((g0 ?? 0) * (1 - t) + (g1 ?? 0) * t);
      rgb[offset + 2] = Math.round((b0 ?? 0) * (1 - t) + (b1 ?? 0) * t);
    }
  }
  return encodePng(width, height, rgb);
}

export async function handleImages(ctx: RequestContext): Promise<void> {
  const body = parseBody(imageRequestSchema, await ctx.readBody());
  ctx.requireModel(body.model);
  const [width = 256, height = 256] = (body.size ?? "256x256").split("x").map(Number);
  if (width < 1 || height < 1 || width > SIDE_MAX || height > SIDE_MAX) {
    throw new HttpError(
      400,
      `invalid field "size": ${width}x${height} is outside 1x1..${SIDE_MAX}x${SIDE_MAX}`,
      "invalid_request_error",
      "invalid_value",
      "size",
    );
  }
  const data = Array.from({ length: body.n ?? 1 }, (_, index) => {
    const base64 = renderPicture(body.prompt, index, width, height).toString("base64");
    return body.response_format === "url"
      ? { url: `data:image/png;base64,${base64}` }
      : { b64_json: base64, revised_prompt: body.prompt };
  });
  sendJson(ctx.res, 200, { created: Math.floor(Date.now() / 1000), data }, ctx.responseHeaders);
}
