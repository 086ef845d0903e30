import { LLMGW_VERSION } from "@llmgw/domain";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "./main";

function stdoutOf(run: () => Promise<number>): Promise<{ code: number; out: string }> {
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  return run().then((code) => ({ code, out }));
}

describe("llmgw --version", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([["--version"], ["-V"]])("%s prints the version and exits 0", async (flag) => {
    const { code, out } = await stdoutOf(() => main([flag]));
    expect(code).toBe(0);
    expect(out).toBe(`${LLMGW_VERSION}\n`);
    expect(LLMGW_VERSION).toMatch(/-dev$/);
  });
});
