import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatSettingsFile, readSettingsFile, SettingsFileError } from "./settings-file";

const home = () => mkdtempSync(join(tmpdir(), "settings-"));

describe("the settings file", () => {
  it("reads back what it wrote, quoting what needs quotes", () => {
    const dir = home();
    const text = formatSettingsFile([
      ["LLMGW_PORT", "8080"],
      ["LLMGW_AGENT_TLS_NAMES", "cp.example.com,10.0.0.5"],
      ["DATABASE_URL", "postgres://llmgw:p w#x@db/llmgw"],
    ]);
    writeFileSync(join(dir, "server.env"), text);
    expect(readSettingsFile(dir)).toEqual({
      LLMGW_PORT: "8080",
      LLMGW_AGENT_TLS_NAMES: "cp.example.com,10.0.0.5",
      DATABASE_URL: "postgres://llmgw:p w#x@db/llmgw",
    });
  });

  it("is empty for a home without one", () => {
    expect(readSettingsFile(home())).toEqual({});
  });

  it("refuses a name that is not a setting, naming it (PATH would reach every engine)", () => {
    const dir = home();
    writeFileSync(
      join(dir, "server.env"),
      "LLMGW_PORT=1\nPATH=/tmp/evil\nNODE_OPTIONS=--inspect\n",
    );
    expect(() => readSettingsFile(dir)).toThrow(SettingsFileError);
    expect(() => readSettingsFile(dir)).toThrow(/PATH, NODE_OPTIONS are not a setting/);
  });

  it("refuses LLMGW_HOME inside the home", () => {
    const dir = home();
    writeFileSync(join(dir, "server.env"), "LLMGW_HOME=/elsewhere\n");
    expect(() => readSettingsFile(dir)).toThrow(/cannot be set inside the home/);
  });

  it("refuses to write a value over two lines", () => {
    expect(() => formatSettingsFile([["LLMGW_BIND", "0.0.0.0\nPATH=/x"]])).toThrow(/one line/);
  });
});
