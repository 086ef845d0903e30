// Unit tests of the console run in plain Node: they cover pure helpers, the tRPC relay, the
// translation files and a source scan, none of which needs a DOM.
import { defineConfig } from "vitest/config";

export const config = defineConfig({
  test: {
    environment: "node",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});

// Vitest reads the configuration from the default export.
export default config;
