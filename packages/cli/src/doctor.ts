// `llmgw doctor [--json] [--data-dir DIR]`: the node's checks run here, on the node, without the
// agent running; exit status 1 when any check fails.
import { parseArgs } from "node:util";
import { doctorText } from "./ctl/views/doctor-view";

const USAGE = "usage: llmgw doctor [--json] [--data-dir DIR]\n";

export async function runDoctor(
  argv: string[],
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  let values: { json?: boolean; "data-dir"?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        json: { type: "boolean" },
        "data-dir": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    process.stderr.write(`llmgw doctor: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    write(USAGE);
    return 0;
  }
  const agent = await import("@llmgw/agent");
  const dataDir = agent.doctorDataDir(values["data-dir"]);
  const checks = await agent.nodeDoctor(dataDir);
  const status = agent.worstStatus(checks);
  if (values.json) write(`${JSON.stringify({ status, checks }, null, 2)}\n`);
  else write(doctorText(`this node (${dataDir})`, checks));
  return status === "fail" ? 1 : 0;
}
