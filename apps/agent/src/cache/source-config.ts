// The config.json of the model sources on this node, read once a replica's weights are resolved,
// so the control plane sizes a model by its own numbers (docs/protocol.md, SourceConfig). Register
// carries every one read; a heartbeat only those read since the last frame that carried them.
import { messageOf } from "@llmgw/domain";
import { lstat, readFile } from "node:fs/promises";
import path from "node:path";

/** The most of a config.json sent; the control plane refuses more (real ones are a few KiB). */
export const MAX_CONFIG_BYTES = 64 * 1024;
/** The most sources remembered; one more replaces nothing (a node rarely holds this many). */
const MAX_SOURCES = 64;

export interface SourceConfigReport {
  source: string;
  configJson: string;
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

export class SourceConfigs {
  private readonly bySource = new Map<string, string>();
  private fresh: string[] = [];

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  /** Reads the source's config.json once, if its weights at `modelPath` have one. */
  async note(source: string, modelPath: string): Promise<void> {
    if (this.bySource.has(source) || this.bySource.size >= MAX_SOURCES) return;
    const file = await configPathFor(modelPath);
    if (file === undefined) return;
    try {
      const info = await lstat(file);
      if (!info.isFile()) return;
      if (info.size > MAX_CONFIG_BYTES) {
        this.log(`${file}: ${info.size} bytes, over ${MAX_CONFIG_BYTES}; not sent for sizing`);
        return;
      }
      this.bySource.set(source, await readFile(file, "utf8"));
      this.fresh.push(source);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") this.log(`${file}: not read for sizing (${messageOf(error)})`);
    }
  }

  /** Every config read, for Register; nothing is fresh after it. */
  all(): SourceConfigReport[] {
    this.fresh = [];
    return [...this.bySource].map(([source, configJson]) => ({ source, configJson }));
  }

  /** The configs read since the last Register or heartbeat. */
  takeFresh(): SourceConfigReport[] {
    const fresh = this.fresh.flatMap((source) => {
      const configJson = this.bySource.get(source);
      return configJson === undefined ? [] : [{ source, configJson }];
    });
    this.fresh = [];
    return fresh;
  }
}
