// Pure routing decisions for the gateway: breakers, endpoint choice, rate windows, allowlists and
// the API key format.
export * from "./allowlist";
export * from "./api-key-format";
export * from "./breaker";
export * from "./choose-endpoint";
export * from "./minute-window";
export * from "./retry-budget";
