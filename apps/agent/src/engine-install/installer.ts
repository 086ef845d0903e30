// One engine the agent installs itself, as a small state machine: installing → ready | failed.
// It runs in the background so the agent joins and serves its other engines meanwhile; the node
// offers the engine only once the build passed its check, and every change is reported (the
// heartbeat carries the state, so a lost frame costs nothing).
import { messageOf } from "@llmgw/domain";

export type EngineInstallPhase = "installing" | "ready" | "failed";

/** Lines of the build's output kept for the report: enough to read why a compile failed. */
export const INSTALL_LOG_TAIL_LINES = 30;

export interface EngineInstallStatus {
  engine: string;
  version: string;
  phase: EngineInstallPhase;
  /** A sentence: what it is doing, the version it checked, or why it failed. */
  message: string;
  /** The last lines of the build's log; kept for every phase, sent in full when failed. */
  logTail: string[];
  /** Set once ready: the checked binary. */
  executable: string | undefined;
  changedAtMs: number;
}

export interface EngineBuilder {
  /** Builds (or finds) the engine; `onLine` gets progress and tool output. */
  build(onLine: (line: string) => void): Promise<{ executable: string; versionText: string }>;
}

export interface EngineInstallerOptions {
  engine: string;
  version: string;
  builder: EngineBuilder;
  nowMs: () => number;
  /** Called on every phase change, after the status is updated. */
  onChange: (status: EngineInstallStatus) => void;
}

export class EngineInstaller {
  private status: EngineInstallStatus;
  private readonly tail: string[] = [];
  private running: Promise<void> | undefined;

  constructor(private readonly options: EngineInstallerOptions) {
    this.status = {
      engine: options.engine,
      version: options.version,
      phase: "installing",
      message: "waiting to start",
      logTail: [],
      executable: undefined,
      changedAtMs: options.nowMs(),
    };
  }

  /** Starts the install once; later calls return the same run. Never rejects. */
  start(): Promise<void> {
    this.running ??= this.run();
    return this.running;
  }

  current(): EngineInstallStatus {
    return { ...this.status, logTail: [...this.tail] };
  }

  private async run(): Promise<void> {
    this.change("installing", `building ${this.options.engine} ${this.options.version}`);
    try {
      const built = await this.options.builder.build((line) => this.record(line));
      this.status.executable = built.executable;
      this.change("ready", built.versionText);
    } catch (error) {
      const why = messageOf(error);
      this.record(why);
      this.change("failed", why);
    }
  }

  private record(line: string): void {
    this.tail.push(line);
    if (this.tail.length > INSTALL_LOG_TAIL_LINES) this.tail.shift();
  }

  private change(phase: EngineInstallPhase, message: string): void {
    this.status = {
      ...this.status,
      phase,
      message,
      logTail: [...this.tail],
      changedAtMs: this.options.nowMs(),
    };
    this.options.onChange(this.current());
  }
}
