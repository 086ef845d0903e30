import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ReleaseError } from "./errors";

/** The SHA-256 (hex) of a file, read as a stream so a release of any size fits in memory. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  return hash.digest("hex");
}

/**
 * Writes a stream to a new file (never over an existing one) while hashing and counting it; more
 * than `maxBytes` stops the copy and removes the file. The caller compares the hash: the server with
 * the uploader's header, the agent with the frame's.
 */
export async function hashToFile(
  source: NodeJS.ReadableStream | AsyncIterable<Uint8Array>,
  path: string,
  maxBytes: number,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        done(
          new ReleaseError(
            "too-large",
            `the release is larger than the limit of ${maxBytes} bytes`,
          ),
        );
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(path, { flags: "wx", mode: 0o600 }));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { sha256: hash.digest("hex"), bytes };
}
