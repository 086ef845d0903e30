import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { systemdUnits, type UnitOptions } from "./systemd-units";

const OPTIONS: UnitOptions = {
  installRoot: "/opt/llmgw",
  homeDir: "/var/lib/llmgw",
  agentDataDir: "/var/lib/llmgw-agent",
  user: "llmgw",
  apiUrl: "http://127.0.0.1:8080",
};

const unitNamed = (name: string, options = OPTIONS) => {
  const unit = systemdUnits(options).find((candidate) => candidate.name === name);
  if (!unit) throw new Error(`no ${name}`);
  return unit.text.split("\n");
};

describe("the systemd units init writes", () => {
  it("run the current release, restart always (75 is not a failure), as the llmgw account", () => {
    for (const name of ["llmgw-server.service", "llmgw-agent.service", "llmgw-web.service"]) {
      const lines = unitNamed(name);
      expect(lines.find((line) => line.startsWith("ExecStart="))).toMatch(
        /^ExecStart=\/opt\/llmgw\/current\/bin\/llmgw /,
      );
      expect(lines).toEqual(
        expect.arrayContaining(["Restart=always", "SuccessExitStatus=75", "User=llmgw"]),
      );
      expect(lines).toEqual(
        expect.arrayContaining(["NoNewPrivileges=yes", "ProtectSystem=strict"]),
      );
    }
  });

  it("stop only the agent, never its engines; the server and console as a group", () => {
    expect(unitNamed("llmgw-agent.service")).toContain("KillMode=process");
    expect(unitNamed("llmgw-server.service")).toContain("KillMode=mixed");
    // The agent needs the cards' device files, the server none.
    expect(unitNamed("llmgw-agent.service")).not.toContain("PrivateDevices=yes");
    expect(unitNamed("llmgw-server.service")).toContain("PrivateDevices=yes");
  });

  it("let each write only its own folders and the install root (an upgrade swaps `current`)", () => {
    expect(unitNamed("llmgw-server.service")).toContain("ReadWritePaths=/var/lib/llmgw /opt/llmgw");
    expect(unitNamed("llmgw-agent.service")).toContain(
      "ReadWritePaths=/var/lib/llmgw-agent /opt/llmgw",
    );
    expect(unitNamed("llmgw-agent.service")).toContain(
      "ExecStart=/opt/llmgw/current/bin/llmgw agent --data-dir /var/lib/llmgw-agent",
    );
  });

  it("are units systemd itself accepts (systemd-analyze verify)", () => {
    const probe = spawnSync("systemd-analyze", ["--version"]);
    // Machines without systemd (containers) cannot run the check; the text checks above still hold.
    if (probe.status !== 0) return;
    const root = mkdtempSync(join(tmpdir(), "units-"));
    mkdirSync(join(root, "current", "bin"), { recursive: true });
    const bin = join(root, "current", "bin", "llmgw");
    writeFileSync(bin, "#!/bin/sh\n");
    chmodSync(bin, 0o755);
    const dir = join(root, "units");
    mkdirSync(dir);
    const units = systemdUnits({ ...OPTIONS, installRoot: root, user: "root" });
    for (const unit of units) writeFileSync(join(dir, unit.name), unit.text);
    const verify = spawnSync(
      "systemd-analyze",
      ["verify", "--man=no", ...units.map((unit) => join(dir, unit.name))],
      { encoding: "utf8" },
    );
    const complaints = `${verify.stdout}${verify.stderr}`
      .split("\n")
      .filter((line) => line.includes(dir) || /Unknown|Failed|Invalid/i.test(line));
    expect(complaints).toEqual([]);
  });
});
