// Pure decisions with no I/O: everything here is a function of its inputs and the time passed in.
export * from "./node-state";
export * from "./catalog";
export * from "./placement";
export * from "./reconcile";
export * from "./seeded-random";
export * from "./routing";
export * from "./outbound";
export * from "./ownership";
export * from "./roles";
export * from "./mcp";
export * from "./pcie-link";
export { messageOf } from "./message-of";
export { must } from "./must";
export { LLMGW_VERSION, RELEASE_VERSION_PATTERN, isReleaseVersion } from "./version";
export * from "./quota/types";
export * from "./quota/spec";
export { quotaUsage, type QuotaReplica, type QuotaUsageInput } from "./quota/accounting";
