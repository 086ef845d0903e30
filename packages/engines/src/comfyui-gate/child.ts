// ComfyUI as the gate's child: started on a free loopback port with the replica's base directory
// and model paths, its output passed on line by line and the last lines kept, so that when it dies
// the gate can say why.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

const LAST_LINES_KEPT = 40;
const STOP_GRACE_MS = 10_000;

export interface ComfyChild {
  url: string;
  lastLines(): string[];
  /** Resolves with the exit code (or 1 when killed by a signal) when the child ends. */
  exited: Promise<{ code: number; signal: string | null }>;
  stop(): Promise<void>;
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export function startComfyChild(options: {
  command: readonly string[];
  cwd: string;
  port: number;
  baseDirectory: string;
  extraPathsFile: string;
  /** Already without the replica key. */
  env: Record<string, string | undefined>;
  log: (line: string) => void;
}): ComfyChild {
  const [command = "python", ...prefix] = options.command;
  const args = [
    ...prefix,
    "--listen",
    "127.0.0.1",
    "--port",
    String(options.port),
    "--base-directory",
    options.baseDirectory,
    "--extra-model-paths-config",
    options.extraPathsFile,
  ];
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const keep = (line: string): void => {
    lines.push(line);
    if (lines.length > LAST_LINES_KEPT) lines.shift();
    options.log(`comfyui: ${line}`);
  };
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on("line", keep);
  const exited = new Promise<{ code: number; signal: string | null }>((resolve) => {
    child.once("error", (error) => {
      keep(`cannot start ${command}: ${error.message}`);
      resolve({ code: 127, signal: null });
    });
    child.once("exit", (code, signal) => resolve({ code: code ?? 1, signal }));
  });
  return {
    url: `http://127.0.0.1:${options.port}`,
    lastLines: () => [...lines],
    exited,
    stop: () => stopChild(child, exited),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** Polls ComfyUI's /system_stats until it answers, the child dies, or the time runs out. */
export async function waitForComfy(
  child: ComfyChild,
  timeoutMs: number,
): Promise<"up" | "died" | "timeout"> {
  let isDead = false;
  void child.exited.then(() => (isDead = true));
  const deadlineMs = Date.now() + timeoutMs;
  while (Date.now() < deadlineMs) {
    if (isDead) return "died";
    if (await answers(child.url)) return "up";
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return "timeout";
}

export async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/system_stats`, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}
