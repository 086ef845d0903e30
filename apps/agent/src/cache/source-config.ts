// The config.json of the model sources on this node, read once a replica's weights are resolved,
// so the control plane sizes a model by its own numbers (docs/protocol.md, SourceConfig). Register
// carries every one read; a heartbeat only those read since the last frame that carried them.
import { messageOf } from "@llmgw/domain";
import { describeGgufSource } from "@llmgw/domain/gguf";
import { lstat, open, readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** The most of a config.json sent; the control plane refuses more (real ones are a few KiB). */
export const MAX_CONFIG_BYTES = 64 * 1024;
/** The most sources remembered; one more replaces nothing (a node rarely holds this many). */
const MAX_SOURCES = 64;

export interface SourceConfigReport {
  source: string;
  /** The config.json's text; empty for a source described from its GGUF header. */
  configJson: string;
  /** The description made from the GGUF header (JSON); empty for a config.json. */
  descriptionJson: string;
}

/** The GGUF weights at `modelPath`: the file itself, or the first `.gguf` by name in a directory. */
async function ggufPathFor(modelPath: string): Promise<string | undefined> {
  try {
    const info = await lstat(modelPath);
    if (info.isFile()) return modelPath.endsWith(".gguf") ? modelPath : undefined;
    if (!info.isDirectory()) return undefined;
    const names = (await readdir(modelPath)).filter((name) => name.endsWith(".gguf")).sort();
    return names[0] === undefined ? undefined : path.join(modelPath, names[0]);
  } catch {
    return undefined;
  }
}

/** What sizing makes of a GGUF's header, read in ranges from the file (never the weights). */
async function describeGgufFile(file: string): Promise<string> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const described = await describeGgufSource({
      sizeBytes: size,
      read: async (offsetBytes, lengthBytes) => {
        const buffer = new Uint8Array(lengthBytes);
        const { bytesRead } = await handle.read(buffer, 0, lengthBytes, offsetBytes);
        return buffer.subarray(0, bytesRead);
      },
    });
    if (!described.ok) throw new Error(described.errors.join("; "));
    return JSON.stringify(described.description);
  } finally {
    await handle.close();
  }
}

/** Where a source's config.json would be: inside a model directory, or beside a weights file. */
async function configPathFor(modelPath: string): Promise<string | undefined> {
  try {
    const info = await lstat(modelPath);
    if (info.isDirectory()) return path.join(modelPath, "config.json");
    if (info.isFile()) return path.join(path.dirname(modelPath), "config.json");
  } catch {
    // Not on this node (a hub id the engine loads itself, a simulator's absent path).
  }
  return undefined;
}

type Reported = Omit<SourceConfigReport, "source">;

export class SourceConfigs {
  private readonly bySource = new Map<string, Reported>();
  private fresh: string[] = [];

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  /** Reads the source's config.json once, if its weights at `modelPath` have one, else its GGUF. */
  async note(source: string, modelPath: string): Promise<void> {
    if (this.bySource.has(source) || this.bySource.size >= MAX_SOURCES) return;
    const report = (await this.readConfig(modelPath)) ?? (await this.readGguf(modelPath));
    if (report === undefined) return;
    this.bySource.set(source, report);
    this.fresh.push(source);
  }

  private async readConfig(modelPath: string): Promise<Reported | undefined> {
    const file = await configPathFor(modelPath);
    if (file === undefined) return undefined;
    try {
      const info = await lstat(file);
      if (!info.isFile()) return undefined;
      if (info.size > MAX_CONFIG_BYTES) {
        this.log(`${file}: ${info.size} bytes, over ${MAX_CONFIG_BYTES}; not sent for sizing`);
        return undefined;
      }
      return { configJson: await readFile(file, "utf8"), descriptionJson: "" };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") this.log(`${file}: not read for sizing (${messageOf(error)})`);
      return undefined;
    }
  }

  private async readGguf(modelPath: string): Promise<Reported | undefined> {
    const file = await ggufPathFor(modelPath);
    if (file === undefined) return undefined;
    try {
      const descriptionJson = await describeGgufFile(file);
      if (Buffer.byteLength(descriptionJson) > MAX_CONFIG_BYTES) return undefined;
      return { configJson: "", descriptionJson };
    } catch (error) {
      this.log(`${file}: GGUF header not read for sizing (${messageOf(error)})`);
      return undefined;
    }
  }

  /** Every config read, for Register; nothing is fresh after it. */
  all(): SourceConfigReport[] {
    this.fresh = [];
    return [...this.bySource].map(([source, reported]) => ({ source, ...reported }));
  }

  /** The configs read since the last Register or heartbeat. */
  takeFresh(): SourceConfigReport[] {
    const fresh = this.fresh.flatMap((source) => {
      const reported = this.bySource.get(source);
      return reported === undefined ? [] : [{ source, ...reported }];
    });
    this.fresh = [];
    return fresh;
  }
}
