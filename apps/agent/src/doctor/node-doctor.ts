// `llmgw doctor` on a node, without a running agent: the checks read the node's data directory
// and ask the control plane for its time. Engine installs are the running agent's to report, so
// they appear only in `llmgw ctl doctor NODE`.
import { execProgram } from "../discovery/exec";
import { measureMemoryReadRate } from "../memory-read-rate";
import type { DoctorCheck } from "./check";
import { runDoctorChecks } from "./run-checks";
import { skewAgainstServer } from "./server-clock";

export async function nodeDoctor(dataDir: string): Promise<DoctorCheck[]> {
  return runDoctorChecks({
    exec: execProgram,
    nowMs: Date.now,
    dataDir,
    clockSkewMs: () => skewAgainstServer(dataDir, Date.now),
    memoryReadRate: () => measureMemoryReadRate(),
  });
}
