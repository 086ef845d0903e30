import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { registerCleanup } from "./cleanup-registry.ts";
import { llmgwBin } from "./paths.ts";
import {
  autogroupNice,
  livingGroupMembers,
  setAutogroupNice,
  signalGroup,
} from "./process-group.ts";
import { waitFor } from "./wait-for.ts";

const OUTPUT_CAP_BYTES = 1024 * 1024;
const STOP_GRACE_MS = 5_000;
const GROUP_GONE_TIMEOUT_MS = 5_000;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnProcessOptions {
  /** Names the process in errors and echoed output, e.g. "server" or "agent-2". */
  name?: string;
  cwd?: string;
  /** Merged over `baseEnv`. */
  env?: Record<string, string | undefined>;
  /** Environment the child starts from; defaults to this process's. Pass `{}` for an empty one. */
  baseEnv?: Record<string, string | undefined>;
  /** How long stop() waits after SIGTERM before SIGKILL (default 5 s). */
  stopGraceMs?: number;
  /** "pipe" to write to the child's standard input through `child.stdin` (default "ignore"). */
  stdin?: "pipe" | "ignore";
  /** Copies output to this process's stderr, prefixed with the name (default: LLMGW_TEST_ECHO=1). */
  echo?: boolean;
  /**
   * The nice value of the child's autogroup (default: this process's own). The child leads a
   * session of its own, and a new session starts a new autogroup at nice 0: without this a
   * benchmark raised to -15 (or a test run lowered to 10) would run its server at 0, competing
   * with every other session on the machine.
   */
  autogroupNice?: number;
}

export interface SpawnedProcess {
  readonly child: ChildProcess;
  /** Also the process group id: the child leads its own group. */
  readonly pid: number;
  readonly name: string;
  /** Settles when the group leader exits. */
  readonly exited: Promise<ExitInfo>;
  /** Combined stdout and stderr so far; only the last ~1 MiB is kept. */
  output(): string;
  /** Resolves with the first match in the output; rejects on timeout or if the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Signals the whole process group. */
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM to the group, SIGKILL after `stopGraceMs`, and waits until no member is left. */
  stop(): Promise<ExitInfo>;
}

class OutputBuffer {
  private text = "";
  private droppedChars = 0;

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > OUTPUT_CAP_BYTES) {
      const excess = this.text.length - OUTPUT_CAP_BYTES;
      this.text = this.text.slice(excess);
      this.droppedChars += excess;
    }
  }

  toString(): string {
    return this.droppedChars > 0 ? `[${this.droppedChars} chars dropped]\n${this.text}` : this.text;
  }
}

function describeExit(exit: ExitInfo): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${String(exit.code)}`;
}

function tail(text: string, lines = 40): string {
  return text.split("\n").slice(-lines).join("\n");
}

interface OutputSource {
  name: string;
  output: OutputBuffer;
  /** Called on every chunk of output and on exit. */
  listeners: Set<() => void>;
  exitInfo(): ExitInfo | undefined;
}

function waitForPattern(
  source: OutputSource,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpMatchArray> {
  const { name, output, listeners } = source;
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      cleanup();
      reject(
        new Error(
          `process "${name}" ${why} ${String(pattern)}; output:\n${tail(output.toString())}`,
        ),
      );
    };
    const check = (): void => {
      const match = output.toString().match(pattern);
      const exit = source.exitInfo();
      if (match) {
        cleanup();
        resolve(match);
      } else if (exit) {
        fail(`exited (${describeExit(exit)}) before printing`);
      }
    };
    const timer = setTimeout(() => fail(`did not within ${timeoutMs} ms print`), timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      listeners.delete(check);
    };
    listeners.add(check);
    check();
  });
}

async function stopGroup(
  pid: number,
  exited: Promise<ExitInfo>,
  graceMs: number,
): Promise<ExitInfo> {
  const isGroupGone = (): boolean => livingGroupMembers(pid).length === 0;
  if (signalGroup(pid, "SIGTERM")) {
    const deadlineMs = Date.now() + graceMs;
    while (!isGroupGone() && Date.now() < deadlineMs) await sleep(50);
    if (!isGroupGone()) signalGroup(pid, "SIGKILL");
  }
  const exit = await exited;
  await waitFor(isGroupGone, {
    what: `process group ${pid} to disappear after SIGKILL`,
    timeoutMs: GROUP_GONE_TIMEOUT_MS,
    intervalMs: 50,
  });
  return exit;
}

/**
 * Starts a command as the leader of a new process group, so `stop()` also reaches everything it
 * spawned (engines, shells). The process is registered for `cleanupAll()` and exit-time killing.
 */
export function spawnProcess(
  command: string,
  args: readonly string[],
  options: SpawnProcessOptions = {},
): SpawnedProcess {
  const name = options.name ?? command;
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...(options.baseEnv ?? process.env), ...options.env },
    detached: true,
    stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
  });
  const { pid } = child;
  if (pid === undefined) {
    throw new Error(`spawnProcess "${name}": could not start ${command} (is it on PATH?)`);
  }
  // spawn() returns once the child has exec'd, so its session (and autogroup) exists already.
  const nice = options.autogroupNice ?? autogroupNice("self");
  if (nice !== undefined && autogroupNice(pid) !== nice) {
    const why = setAutogroupNice(pid, nice);
    if (why !== undefined && options.autogroupNice !== undefined) {
      signalGroup(pid, "SIGKILL");
      throw new Error(
        `spawnProcess "${name}": could not set its autogroup's nice to ${nice} (${why})`,
      );
    }
  }
  const output = new OutputBuffer();
  const listeners = new Set<() => void>();
  const echo = options.echo ?? process.env.LLMGW_TEST_ECHO === "1";
  const onData = (chunk: Buffer): void => {
    const text = chunk.toString("utf8");
    output.append(text);
    if (echo) process.stderr.write(text.replace(/^(?=.)/gm, `[${name}] `));
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);

  let exitInfo: ExitInfo | undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once("exit", (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
      for (const listener of listeners) listener();
    });
  });

  let stopping: Promise<ExitInfo> | undefined;
  const stop = (): Promise<ExitInfo> => {
    handle.unregister();
    stopping ??= stopGroup(pid, exited, options.stopGraceMs ?? STOP_GRACE_MS);
    return stopping;
  };
  const handle = registerCleanup({
    name: `process "${name}" (pid ${pid})`,
    stop,
    killNow: () => signalGroup(pid, "SIGKILL"),
  });

  const waitForOutput = (pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> =>
    waitForPattern({ name, output, listeners, exitInfo: () => exitInfo }, pattern, timeoutMs);

  return {
    child,
    pid,
    name,
    exited,
    output: () => output.toString(),
    waitForOutput,
    kill: (signal = "SIGTERM") => void signalGroup(pid, signal),
    stop,
  };
}

/** Runs `node packages/cli/bin/llmgw.mjs <args>` as a process group (see spawnProcess). */
export function spawnLlmgw(
  args: readonly string[],
  options: SpawnProcessOptions = {},
): SpawnedProcess {
  return spawnProcess(process.execPath, [llmgwBin(), ...args], {
    name: `llmgw ${args[0] ?? ""}`.trim(),
    ...options,
  });
}
