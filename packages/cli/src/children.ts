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

/** The exit status with which an agent or server that upgraded itself asks to be started again. */
const EXIT_RESTART = 75;

/**
 * A child started again whenever it exits with status 75 (it swapped in a new release), as
 * systemd's `Restart=always` does on a node; any other exit, or a stop, ends it. `exited` resolves
 * only with that final exit, and `process` is always the one running now.
 */
export function startRestartingChild(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { quiet: boolean; isStopping(): boolean; log(line: string): void },
): Child {
  let current = startChild(name, args, env, options.quiet);
  const watch = async (): Promise<number | null> => {
    for (;;) {
      const code = await current.exited;
      if (code !== EXIT_RESTART || options.isStopping()) return code;
      options.log(`llmgw dev: ${name} exited with ${EXIT_RESTART} (upgraded); starting it again\n`);
      current = startChild(name, args, env, options.quiet);
      supervised.process = current.process;
    }
  };
  const supervised: Child = { name, process: current.process, exited: Promise.resolve(null) };
  supervised.exited = watch();
  return supervised;
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
