// Facility domains: where nodes stand, the labels that say so, holds, cordons and power budgets.
export * from "./domains";
export * from "./labels";
export * from "./holds";
export * from "./budgets";
export * from "./board-power";
