// Model descriptions read from the sources on the nodes: an agent that has a model's weights on
// disk reports its config.json, or the description it made of a GGUF's header (Register and
// Heartbeat), and sizing prefers it to the built-in
// table of known configs, which covers only the presets' architectures. Kept in memory by source:
// every Register carries them all again, so a restarted control plane has them back as the agents
// reconnect. What an agent sends is untrusted input: too large, not JSON or not a model is refused
// and logged, and the rest of the frame is kept.
import {
  describeConfig,
  knownConfigFor,
  messageOf,
  parseGgufDescription,
  type DescribeResult,
  type ModelDescription,
} from "@llmgw/domain";
import type { SourceConfig } from "@llmgw/proto";

/** The most of a config.json kept; real ones are a few KiB (the largest known under 16 KiB). */
export const MAX_SOURCE_CONFIG_BYTES = 64 * 1024;
/** The most sources one frame may report; the rest of the frame's list is refused. */
export const MAX_SOURCE_CONFIGS_PER_FRAME = 64;
const MAX_SOURCE_CHARS = 2_048;

export class SourceDescriptions {
  private readonly bySource = new Map<string, ModelDescription>();

  /** Takes what a node reported, logging each refusal with the node and the source. */
  accept(nodeName: string, reports: readonly SourceConfig[], log: (line: string) => void): void {
    reports.forEach((report, position) => {
      const refusal =
        position >= MAX_SOURCE_CONFIGS_PER_FRAME
          ? `more than ${MAX_SOURCE_CONFIGS_PER_FRAME} sources in one frame`
          : this.take(report);
      if (refusal === undefined) return;
      const source = report.source.slice(0, 200);
      const what =
        report.configJson === "" && report.descriptionJson !== ""
          ? "GGUF description"
          : "config.json";
      log(`node ${nodeName}: ${what} of source "${source}" refused: ${refusal}`);
    });
  }

  /** The description reported for a source, if a node has sent one that describes a model. */
  reported(source: string): ModelDescription | undefined {
    return this.bySource.get(source);
  }

  private take(report: SourceConfig): string | undefined {
    if (report.source === "" || report.source.length > MAX_SOURCE_CHARS)
      return `the source must be 1 to ${MAX_SOURCE_CHARS} characters`;
    const isGguf = report.configJson === "" && report.descriptionJson !== "";
    const text = isGguf ? report.descriptionJson : report.configJson;
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > MAX_SOURCE_CONFIG_BYTES)
      return `${bytes} bytes, over the ${MAX_SOURCE_CONFIG_BYTES} a ${isGguf ? "GGUF description" : "config.json"} may have`;
    const described = isGguf ? parseGgufDescription(text) : describeConfigText(text);
    if (!described.ok) return described.errors.join("; ");
    this.bySource.set(report.source, described.description);
    return undefined;
  }
}

function describeConfigText(text: string): DescribeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`not JSON (${messageOf(error)})`] };
  }
  return describeConfig(parsed);
}

/**
 * What sizing knows of a source: the config.json a node reported, else the built-in table's;
 * undefined when neither describes it.
 */
export function describeSource(
  source: string,
  reported: Pick<SourceDescriptions, "reported"> | undefined,
): ModelDescription | undefined {
  const fromNode = reported?.reported(source);
  if (fromNode !== undefined) return fromNode;
  const config = knownConfigFor(source);
  if (config === undefined) return undefined;
  const described = describeConfig(config);
  return described.ok ? described.description : undefined;
}
