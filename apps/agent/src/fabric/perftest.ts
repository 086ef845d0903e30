// perftest on this node: installed through apt-get the first time ib_write_bw is missing, a server
// started on one adapter (answered once it waits for its client), a client run against a peer.
// Programs are run through injected functions so tests feed recorded output instead.
import { spawn } from "node:child_process";
import { ExecError, type ExecFn } from "../discovery/exec";

const IB_WRITE_BW = "ib_write_bw";
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const LISTEN_TIMEOUT_MS = 15_000;
/** Setup of the queue pairs and the exchange before and after the timed run. */
const RUN_MARGIN_MS = 30_000;
const OUTPUT_TAIL_CHARS = 2_000;
/** perftest's server prints this banner once it listens for its client. */
const LISTENING_BANNER = "Waiting for client to connect";

/** A program left running (the server); output comes as it is written. */
export interface RunningProgram {
  onOutput(listener: (text: string) => void): void;
  /** Resolves with the exit status when the program ends (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  kill(): void;
}

export type StartFn = (file: string, args: readonly string[]) => RunningProgram;

export interface PerftestRun {
  adapter: string;
  durationSeconds: number;
  port: number;
  sizeBytes: number;
  gidIndex: number;
}

function ibWriteBwArgs(run: PerftestRun, peerAddress?: string): string[] {
  const args = ["-d", run.adapter, "--report_gbits", "-F", "-D", String(run.durationSeconds)];
  if (run.port > 0) args.push("-p", String(run.port));
  if (run.sizeBytes > 0) args.push("-s", String(run.sizeBytes));
  if (run.gidIndex >= 0) args.push("-x", String(run.gidIndex));
  if (peerAddress !== undefined) args.push(peerAddress);
  return args;
}

const tail = (text: string) => text.slice(-OUTPUT_TAIL_CHARS);

async function hasIbWriteBw(exec: ExecFn): Promise<boolean> {
  try {
    await exec(IB_WRITE_BW, ["--version"], { timeoutMs: 10_000 });
    return true;
  } catch (error) {
    if (error instanceof ExecError && error.code === "ENOENT") return false;
    throw error;
  }
}

/** Installs perftest unless ib_write_bw is there; throws saying why it could not. */
export async function ensurePerftest(exec: ExecFn): Promise<"present" | "installed"> {
  if (await hasIbWriteBw(exec)) return "present";
  // Through env(1): debconf must not wait for answers nobody can give over the stream.
  const install = ["DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "perftest"];
  const why = await exec("env", install, { timeoutMs: INSTALL_TIMEOUT_MS }).then(
    (result) => (result.exitCode === 0 ? null : tail(result.stderr || result.stdout).trim()),
    (error: Error) => error.message,
  );
  if (why !== null || !(await hasIbWriteBw(exec)))
    throw new Error(
      `ib_write_bw is not installed and \`apt-get install -y perftest\` could not install it: ${why ?? "ib_write_bw still missing"}; install perftest on the node`,
    );
  return "installed";
}

/** Starts the server and resolves once it waits for its client; it is killed after the run. */
export async function startServer(start: StartFn, run: PerftestRun): Promise<void> {
  const program = start(IB_WRITE_BW, ibWriteBwArgs(run));
  let output = "";
  const stopTimer = setTimeout(
    () => program.kill(),
    run.durationSeconds * 1000 + RUN_MARGIN_MS + LISTEN_TIMEOUT_MS,
  );
  stopTimer.unref();
  void program.exited.then(() => clearTimeout(stopTimer));
  await new Promise<void>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(listenTimer);
      program.kill();
      reject(new Error(`${why}${output.trim() === "" ? "" : `: ${tail(output).trim()}`}`));
    };
    const listenTimer = setTimeout(
      () => fail(`ib_write_bw did not listen within ${LISTEN_TIMEOUT_MS / 1000} s`),
      LISTEN_TIMEOUT_MS,
    );
    program.onOutput((text) => {
      output += text;
      if (output.includes(LISTENING_BANNER)) {
        clearTimeout(listenTimer);
        resolve();
      }
    });
    void program.exited.then((code) =>
      fail(`ib_write_bw exited (status ${code}) before a client came`),
    );
  });
}

/** Runs the client to its end and returns its whole output; throws with its tail on failure. */
export async function runClient(
  exec: ExecFn,
  run: PerftestRun,
  peerAddress: string,
): Promise<string> {
  const result = await exec(IB_WRITE_BW, ibWriteBwArgs(run, peerAddress), {
    timeoutMs: run.durationSeconds * 1000 + RUN_MARGIN_MS,
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.exitCode !== 0)
    throw new Error(`ib_write_bw exited with status ${result.exitCode}: ${tail(output).trim()}`);
  return output;
}

/** The real StartFn: the program in its own process, stdout and stderr read together. */
export const startProgram: StartFn = (file, args) => {
  const child = spawn(file, [...args], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(null));
    child.once("exit", (code) => resolve(code));
  });
  return {
    onOutput(listener) {
      child.stdout.on("data", (chunk: Buffer) => listener(chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => listener(chunk.toString("utf8")));
    },
    exited,
    kill: () => child.kill("SIGKILL"),
  };
};
