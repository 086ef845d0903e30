// Unit tests of the console run in plain Node: they cover pure helpers, the tRPC relay, the
// translation files and a source scan. A component test asks for a DOM in its first line
// (`// @vitest-environment happy-dom`); Next's tsconfig leaves JSX alone, so it is compiled here.
import { defineConfig } from "vitest/config";

export const config = defineConfig({
  oxc: { jsx: { runtime: "automatic" } },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});

// Vitest reads the configuration from the default export.
export default config;
