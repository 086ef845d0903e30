// The guard's pure parts: personal-data and injection detectors, the policy schema, and how a
// judge model is asked and read.
export * from "./pii";
export * from "./injection";
export * from "./policy";
export * from "./judge";
export * from "./pii-stream";
