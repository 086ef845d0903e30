// The one guard on every address the control plane calls on an operator's behalf (external
// models, MCP servers, peers): pure, so the server applies it to URLs and to what DNS answers.
export * from "./outbound-guard";
