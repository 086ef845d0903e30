import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { parseCtlArgs } from "./program";

function script(shell: string): string {
  const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  expect(parseCtlArgs(["completion", shell])).toBe(0);
  const text = out.mock.calls.map(([chunk]) => String(chunk)).join("");
  out.mockRestore();
  return text;
}

const dir = mkdtempSync(join(tmpdir(), "llmgw-completion-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash's completion function offers for the words typed so far (the last being the cursor). */
function bashComplete(words: string[]): string[] {
  const path = join(dir, "llmgw.bash");
  writeFileSync(path, script("bash"));
  const array = words.map((word) => `'${word}'`).join(" ");
  const output = execFileSync("bash", [
    "-c",
    `source ${path}; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _llmgw; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ]);
  return output.toString().split("\n").filter(Boolean);
}

describe("shell completion", () => {
  it("completes llmgw's commands, ctl's commands, a command's verbs and its own flags in bash", () => {
    expect(bashComplete(["llmgw", "c"])).toEqual(["ctl", "comfyui-gate"]);
    expect(bashComplete(["llmgw", "ctl", "ke"])).toEqual(["keys"]);
    expect(bashComplete(["llmgw", "ctl", "keys", ""])).toEqual(["create", "list", "revoke"]);
    expect(bashComplete(["llmgw", "ctl", "keys", "create", "--m"])).toEqual([
      "--models",
      "--max-concurrent",
    ]);
    expect(bashComplete(["llmgw", "ctl", "logs", "node-1", "-"])).toEqual(
      expect.arrayContaining(["-n", "--lines", "-f", "--follow", "--server", "--help"]),
    );
    expect(bashComplete(["llmgw", "ctl", "models", "--o"])).toEqual([]);
    expect(bashComplete(["llmgw", "ctl", "completion", ""])).toEqual(["bash", "zsh"]);
    expect(bashComplete(["llmgw", "ctl", "model", "k"])).toEqual(["key"]);
    // Eight bash processes: seconds when the whole unit suite shares two cores.
  }, 30_000);

  it("registers a zsh function over the same commands", () => {
    const zsh = script("zsh");
    expect(zsh).toMatch(/^#compdef llmgw\n/);
    expect(zsh).toContain("compdef _llmgw llmgw");
    expect(zsh).toMatch(/^ {4}keys\) verbs=\(create list revoke\); flags=\(--owner --models /m);
  });

  it("refuses a shell it does not know", () => {
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(parseCtlArgs(["completion", "fish"])).toBe(2);
    expect(String(err.mock.calls[0]?.[0])).toMatch(/fish.*Allowed choices are bash, zsh/);
    err.mockRestore();
  });
});
