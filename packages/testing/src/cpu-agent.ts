// A real agent on this machine, not simulated: it discovers the host (no cards here, so a CPU
// node) and installs llama.cpp from the shared engine cache, as a production node would.
import { cleanUpEnginesOf, type ServerHandle } from "./llmgw-fleet.ts";
import { spawnLlmgw, type SpawnedProcess } from "./spawn-process.ts";

export function startCpuAgent(
  server: ServerHandle,
  name: string,
  dataDir: string,
  engineDir: string,
): SpawnedProcess {
  cleanUpEnginesOf(dataDir, name);
  return spawnLlmgw(
    ["agent", "--server", server.agentUrl, "--name", name, "--engine-dir", engineDir],
    {
      name: `agent ${name}`,
      env: {
        LLMGW_JOIN_TOKEN: server.joinToken,
        LLMGW_CA_SHA256: server.caSha256,
        LLMGW_AGENT_DATA_DIR: dataDir,
      },
    },
  );
}
