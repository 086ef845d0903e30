// MCP gateway decisions: grants by level and tool names.
export * from "./grants";
export * from "./tool-names";
