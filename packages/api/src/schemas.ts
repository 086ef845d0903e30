// The browser-safe face of the API (`@llmgw/api/schemas`): every zod schema and inferred type, the
// refusal codes and the constants client and server share, so the console validates its forms
// with the schemas the server uses. Nothing reachable from here may import the router, @trpc/server
// or node:*; browser-safe.test.ts bundles this file for the browser to keep it so.
export * from "./constants";
export * from "./refusals";
export { isControlCode, multiLine, oneLine } from "./text";
export * from "./audit/schemas";
export * from "./auth/schemas";
export * from "./doctor/schemas";
export * from "./events/schemas";
export * from "./fabric/schemas";
export * from "./explore/schemas";
export * from "./facility/schemas";
export * from "./federation/schemas";
export * from "./join-tokens/schemas";
export * from "./keys/schemas";
export * from "./logs/schemas";
export * from "./guard/schemas";
export * from "./mcp/schemas";
export * from "./mirrors/schemas";
export * from "./models/schemas";
export * from "./nodes/schemas";
export * from "./nodes/summary";
export * from "./nodes/table";
export * from "./people/schemas";
export * from "./quotas/schemas";
export * from "./reclaim/schemas";
export * from "./releases/schemas";
export * from "./control-planes/schemas";
export * from "./upgrade/schemas";
export * from "./replicas/cards";
export * from "./replicas/schemas";
export * from "./replicas/table";
export * from "./sign-in/schemas";
export * from "./status/schemas";
export * from "./usage/schemas";
export * from "./usage/failed-schemas";
export * from "./tables/window";
