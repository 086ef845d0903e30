// The commands of `llmgw` itself, named once for its help and for shell completion.
export const TOP_COMMANDS = {
  server:
    "run the control plane (--home DIR; API on LLMGW_PORT, agents on LLMGW_AGENT_PORT); `server init|add|migrate-store` make or move a home (server --help)",
  agent:
    "run a node agent (join once: agent join wss://HOST:8081 --token-file F --ca-sha256 H; --simulate PROFILE)",
  doctor:
    "check this node: driver, PCIe links, disk room, clock skew, certificate, memory read rate (--json, --data-dir DIR)",
  web: "run the console (LLMGW_WEB_PORT, LLMGW_API_URL)",
  ctl: "talk to a running server (login, nodes, models, replicas, status, logs, …; --help)",
  "sim-engine":
    "run a simulated OpenAI-compatible engine (--port, --model, --fault …; key in SIM_ENGINE_API_KEY)",
  "comfyui-gate":
    "run ComfyUI as a child behind a gate that demands the replica key (--port, --comfyui-dir, --base-directory; key in LLMGW_REPLICA_KEY)",
  "sim-comfyui":
    "run a simulated ComfyUI HTTP API (--listen, --port, --base-directory, --step-ms); asks for no key, as ComfyUI",
  dev: "server on embedded PGlite + console + a simulated fleet, in one command",
} as const;

export type TopCommandName = keyof typeof TOP_COMMANDS;
