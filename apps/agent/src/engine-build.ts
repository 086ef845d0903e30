// The GPU engine build this node installs (EngineBuild from the control plane): kept in the data
// directory so a restarted agent holds it before the control plane says it again, resolved against
// the node's driver, and reported in every Register and Heartbeat (EngineBuildReport).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  isEngineBuildChoice,
  messageOf,
  resolveEngineBuild,
  vllmInstallSource,
  withheldEngines,
  type EngineBuildChoice,
} from "@llmgw/domain";
import { create } from "@bufbuild/protobuf";
import { EngineBuildReportSchema, type EngineBuildReport } from "@llmgw/proto";
import type { Logger } from "./log-ring";

const CHOICE_FILE = "engine-build";

export interface EngineBuildKeeperOptions {
  dataDir: string;
  /** What auto goes by: the driver discovery found and how many cards. */
  node: { driverVersion: string; gpuCount: number };
  /** The engines the node offers now (grows as installs become ready). */
  offered: () => readonly string[];
  /** Engines found on the engines' PATH: they need no build and are never withheld. */
  onPath: readonly string[];
  logger: Logger;
}

export class EngineBuildKeeper {
  private choice: EngineBuildChoice;

  constructor(private readonly options: EngineBuildKeeperOptions) {
    this.choice = readChoice(options.dataDir) ?? "auto";
  }

  /** Takes the control plane's choice; an unknown word is logged and leaves the choice as it was. */
  apply(text: string): void {
    if (!isEngineBuildChoice(text)) {
      this.options.logger.warn("engine build refused", { build: text, kept: this.choice });
      return;
    }
    if (text === this.choice) return;
    this.choice = text;
    const report = this.report();
    this.options.logger.info("engine build", { choice: text, build: report.build });
    try {
      writeFileSync(path.join(this.options.dataDir, CHOICE_FILE), `${text}\n`);
    } catch (error) {
      this.options.logger.warn("engine build not saved", { why: messageOf(error) });
    }
  }

  report(): EngineBuildReport {
    const resolved = resolveEngineBuild(this.choice, this.options.node);
    return create(EngineBuildReportSchema, {
      choice: this.choice,
      build: resolved.build,
      reason: resolved.reason,
      installSource: vllmInstallSource(resolved.build),
      withheldEngines: withheldEngines(resolved.build, this.options.offered(), this.options.onPath),
    });
  }
}

function readChoice(dataDir: string): EngineBuildChoice | null {
  try {
    const text = readFileSync(path.join(dataDir, CHOICE_FILE), "utf8").trim();
    return isEngineBuildChoice(text) ? text : null;
  } catch {
    return null;
  }
}
