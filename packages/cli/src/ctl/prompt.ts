// Reads a password from standard input: the whole of stdin for scripts, or a hidden prompt on a
// terminal.
import { createInterface } from "node:readline";
import { CtlError } from "./client";

export async function readPassword(
  fromStdin: boolean,
  question: string,
  what: "password" | "token" = "password",
): Promise<string> {
  if (fromStdin || !process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    const password = Buffer.concat(chunks)
      .toString("utf8")
      .replace(/\r?\n$/, "");
    if (!password) throw new CtlError(`no ${what} on standard input`);
    return password;
  }
  return promptHidden(question);
}

function promptHidden(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Echo nothing while the password is typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (text: string) => {
    if (text.includes(question)) process.stderr.write(question);
  };
  return new Promise((resolve) =>
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write("\n");
      resolve(answer);
    }),
  );
}
