import { parseArgs } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isFlagError, runServerSubcommand, SERVER_USAGE } from "./subcommands";

afterEach(() => vi.restoreAllMocks());

describe("llmgw server's subcommands", () => {
  it("prints the usage, naming add and migrate-store, for --help", async () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((text) => {
      written.push(String(text));
      return true;
    });
    expect(await runServerSubcommand(["--help"])).toBe(0);
    expect(written.join("")).toBe(SERVER_USAGE);
    expect(SERVER_USAGE).toContain("llmgw server add --home DIR --from FIRST_HOME");
    expect(SERVER_USAGE).toContain("llmgw server migrate-store");
  });

  it("prints a subcommand's own usage for its --help, running nothing", async () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((text) => {
      written.push(String(text));
      return true;
    });
    expect(await runServerSubcommand(["add", "--home", "/tmp/x", "--help"])).toBe(0);
    expect(await runServerSubcommand(["migrate-store", "-h"])).toBe(0);
    expect(written[0]).toContain("usage: llmgw server add --home DIR --from FIRST_HOME");
    expect(written[1]).toContain("usage: llmgw server migrate-store --home DIR");
  });

  it("leaves a plain start (flags, or nothing) to the server", async () => {
    expect(await runServerSubcommand([])).toBeNull();
    expect(await runServerSubcommand(["--home", "/tmp/x"])).toBeNull();
  });

  it("tells a flag mistake from any other error", () => {
    let flagError: unknown;
    try {
      parseArgs({ args: ["--hme"], options: {}, strict: true });
    } catch (error) {
      flagError = error;
    }
    expect(isFlagError(flagError)).toBe(true);
    expect(isFlagError(new Error("disk full"))).toBe(false);
    expect(isFlagError(null)).toBe(false);
  });
});
