// The one way discovery runs a program, injectable so tests feed recorded output instead of a
// driver. A missing binary rejects with code "ENOENT"; a run past its timeout is killed and
// rejects with `timedOut: true`; any exit status resolves, because nvidia-smi reports an unknown
// field through its exit status and output.
import { execFile } from "node:child_process";

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

interface ExecOptions {
  timeoutMs: number;
  /** The program's whole environment; absent: the agent's own. */
  env?: Record<string, string>;
}

export type ExecFn = (
  file: string,
  args: readonly string[],
  options: ExecOptions,
) => Promise<ExecResult>;

export class ExecError extends Error {
  override readonly name = "ExecError";
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

export const execProgram: ExecFn = (file, args, options) =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      [...args],
      {
        timeout: options.timeoutMs,
        ...(options.env === undefined ? {} : { env: options.env }),
        killSignal: "SIGKILL",
        maxBuffer: 16 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ exitCode: 0, stdout, stderr });
        const errno = error as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
        if (typeof errno.code === "number")
          return resolve({ exitCode: errno.code, stdout, stderr });
        const timedOut = errno.killed === true;
        const why = timedOut ? `timed out after ${options.timeoutMs} ms` : error.message;
        reject(
          new ExecError(
            `${file}: ${why}`,
            typeof errno.code === "string" ? errno.code : undefined,
            timedOut,
          ),
        );
      },
    );
  });
