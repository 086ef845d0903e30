export * from "./audit-log";
export * from "./gpus";
export * from "./nodes";
export * from "./sessions";
export * from "./settings";
export * from "./users";
