// The shipped alert rules (deploy/prometheus/llmgw-alerts.yml) name only metrics a running server
// really exports: a rule on a misspelt or renamed metric would never fire and nothing else would
// say so. promtool checks the rules' syntax and fires each one on made-up series (npm test runs
// it); this holds the names to a real server's /metrics, the fleet's, the gateway's, the
// certificates' and the leader's gauges included.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { serverSetup, startServer, type ServerHandle } from "./harness";

const RULES = fileURLToPath(
  new URL("../../../deploy/prometheus/llmgw-alerts.yml", import.meta.url),
);

interface Rules {
  groups?: { name: string; rules?: { alert?: string; expr?: string }[] }[];
}

let server: ServerHandle;
beforeAll(async () => {
  server = await startServer(await serverSetup());
});
afterAll(async () => server?.process.stop());

describe("the shipped alert rules", () => {
  it("name only metrics a running server exports", async () => {
    const file = parse(readFileSync(RULES, "utf8")) as Rules;
    const rules = (file.groups ?? []).flatMap((group) => group.rules ?? []);
    const named = new Set(rules.flatMap((rule) => rule.expr?.match(/llmgw_[a-z_]+/g) ?? []));
    expect(named.size).toBeGreaterThanOrEqual(10);
    const text = await (await fetch(`${server.apiUrl}/metrics`)).text();
    const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]));
    for (const name of named) expect(exported, `${name} is not exported`).toContain(name);
  });

  it("cover what an operator is paged for", () => {
    const file = parse(readFileSync(RULES, "utf8")) as Rules;
    const alerts = (file.groups ?? []).flatMap((group) =>
      (group.rules ?? []).map((rule) => rule.alert),
    );
    expect(alerts).toEqual(
      expect.arrayContaining([
        "NodeUnreachable",
        "ModelNotServing",
        "ModelParked",
        "ModelUnplaceable",
        "EngineCrashLooping",
        "EndpointBreakerOpen",
        "ModelQueueFull",
        "NodeCertificateExpiringSoon",
        "CapacityAtLimit",
        "ControlPlaneStalling",
      ]),
    );
  });
});
