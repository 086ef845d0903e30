// Runs one build tool with its output split into lines for the install log, and fails naming the
// command and its exit status, so a failed install's last lines say which step broke and why.
import { spawn } from "node:child_process";

export type LineSink = (line: string) => void;

export interface RunLoggedOptions {
  cwd: string;
  onLine: LineSink;
  /** Absent: no limit (a compile takes as long as it takes). */
  timeoutMs?: number;
}

export function runLogged(
  command: string,
  args: readonly string[],
  options: RunLoggedOptions,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const split = lineSplitter(options.onLine);
    child.stdout.on("data", split.push);
    child.stderr.on("data", split.push);
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    const what = `${command} ${args.join(" ")}`;
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${what}: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      split.flush();
      if (code === 0) resolve();
      else reject(new Error(`${what} failed (${signal ?? `exit status ${String(code)}`})`));
    });
  });
}

function lineSplitter(onLine: LineSink): { push: (chunk: Buffer) => void; flush: () => void } {
  let pending = "";
  return {
    push: (chunk) => {
      const parts = (pending + chunk.toString("utf8")).split(/\r?\n|\r/);
      pending = parts.pop() ?? "";
      for (const line of parts) if (line.trim() !== "") onLine(line);
    },
    flush: () => {
      if (pending.trim() !== "") onLine(pending);
      pending = "";
    },
  };
}
