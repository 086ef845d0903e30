// The operating-system side of an engine: spawning it in its own process group (so it outlives the
// agent and can be adopted, and so a stop reaches every process the engine forked), signalling the
// group, and finding a free port. Everything here is behind ProcessOps so tests can fake it.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import net from "node:net";

interface SpawnRequest {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  /** The engine writes straight to this file, which survives the agent; the agent tails it. */
  logPath: string;
}

export interface ProcessOps {
  spawn(request: SpawnRequest): ChildProcess;
  /** True while a process with this pid exists (signal 0). */
  isAlive(pid: number): boolean;
  /** True while any process of the group exists. */
  isGroupAlive(pgid: number): boolean;
  signalGroup(pgid: number, signal: NodeJS.Signals): void;
  pickPort(host: string, taken: ReadonlySet<number>): Promise<number>;
}

export const realProcessOps: ProcessOps = {
  spawn: spawnDetached,
  isAlive: (pid) => probeSignal(pid),
  isGroupAlive: (pgid) => probeSignal(-pgid),
  signalGroup: (pgid, signal) => {
    try {
      process.kill(-pgid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  },
  pickPort,
};

function spawnDetached(request: SpawnRequest): ChildProcess {
  const logFd = openSync(request.logPath, "a", 0o600);
  try {
    const child = spawn(request.command, [...request.args], {
      detached: true,
      env: request.env,
      stdio: ["ignore", logFd, logFd],
    });
    // The agent may exit before the engine; it must not keep the agent's event loop alive.
    child.unref();
    return child;
  } finally {
    closeSync(logFd);
  }
}

function probeSignal(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else, which still means the pid is taken.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Asks the kernel for a free port on the engine's address, skipping ports replicas already hold. */
async function pickPort(host: string, taken: ReadonlySet<number>): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once("error", reject);
      server.listen(0, host, () => {
        const address = server.address();
        server.close(() =>
          resolve(typeof address === "object" && address !== null ? address.port : 0),
        );
      });
    });
    if (port !== 0 && !taken.has(port)) return port;
  }
  throw new Error(`no free port found on ${host}`);
}
