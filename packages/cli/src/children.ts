// Child processes of `llmgw dev`: started with their output prefixed, stopped together with
// SIGTERM and then SIGKILL, so Ctrl-C leaves nothing behind.
import { spawn, type ChildProcess } from "node:child_process";

export interface Child {
  name: string;
  process: ChildProcess;
  exited: Promise<number | null>;
}

export function startChild(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  quiet: boolean,
): Child {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const prefix = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    if (quiet) return;
    for (const line of chunk.toString("utf8").split("\n"))
      if (line) stream.write(`[${name}] ${line}\n`);
  };
  child.stdout?.on("data", prefix(process.stdout));
  child.stderr?.on("data", prefix(process.stderr));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { name, process: child, exited };
}

export async function stopChildren(children: Child[], graceMs = 5_000): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.process.exitCode !== null || child.process.signalCode !== null) return;
      child.process.kill("SIGTERM");
      const timer = setTimeout(() => child.process.kill("SIGKILL"), graceMs);
      await child.exited;
      clearTimeout(timer);
    }),
  );
}
