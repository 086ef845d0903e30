// Reading a GGUF header with @huggingface/gguf, which asks for the file in ranges of 2 MB as far as
// the header goes and never for the weights. The bytes come from the caller (a file handle on the
// node, a buffer in a test, an upload), so the domain stays free of I/O: the parser's `fetch` is
// answered from `source.read`. A separate entry (`@llmgw/domain/gguf`) because the parser is
// server-side code the console never needs.
import { gguf, type GGUFParseOutput } from "@huggingface/gguf";
import type { DescribeResult } from "./describe";
import { describeGguf, type GgufHeader } from "./gguf";
import { messageOf } from "../message-of";

/** Where a GGUF's bytes come from: its size and a read of a range of it. */
export interface GgufByteSource {
  sizeBytes: number;
  read(offsetBytes: number, lengthBytes: number): Promise<Uint8Array>;
}

// The parser reads through `fetch`; this address only tells it to use ranges (its local-file mode
// opens paths itself, which the domain must not).
const SOURCE_URL = "https://gguf.invalid/model.gguf";
const RANGE_HEADER = /^bytes=(\d+)-(\d+)$/;

function rangeOf(init: RequestInit | undefined): [number, number] {
  const range = new Headers(init?.headers).get("range") ?? "";
  const match = RANGE_HEADER.exec(range);
  if (!match) throw new Error(`the GGUF reader asked for "${range}", not a byte range`);
  return [Number(match[1]), Number(match[2])];
}

/** A `fetch` that answers the parser's range requests from `source`. */
function fetchFrom(source: GgufByteSource): typeof fetch {
  return async (_input, init) => {
    const [first, last] = rangeOf(init);
    const start = Math.min(first, source.sizeBytes);
    const end = Math.min(last + 1, source.sizeBytes);
    const bytes = end > start ? await source.read(start, end - start) : new Uint8Array(0);
    return new Response(bytes, {
      status: 206,
      headers: {
        "content-range": `bytes ${start}-${Math.max(start, end - 1)}/${source.sizeBytes}`,
      },
    });
  };
}

/** The header of the GGUF `source` holds: metadata and tensor list, without the weights. */
export async function readGgufHeader(source: GgufByteSource): Promise<GgufHeader> {
  // Loosely typed: sizing reads the keys of any architecture, not only those the parser lists.
  const parsed: GGUFParseOutput<{ strict: false }> = await gguf(SOURCE_URL, {
    fetch: fetchFrom(source),
  });
  return { metadata: parsed.metadata, tensorInfos: parsed.tensorInfos };
}

/** A description of the model in a GGUF; a file that is not one is refused with the reason. */
export async function describeGgufSource(source: GgufByteSource): Promise<DescribeResult> {
  let header: GgufHeader;
  try {
    header = await readGgufHeader(source);
  } catch (error) {
    return { ok: false, errors: [`not a readable GGUF file: ${messageOf(error)}`] };
  }
  return describeGguf(header);
}
