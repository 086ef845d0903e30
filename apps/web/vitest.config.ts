// Unit tests of the console run in plain Node: they cover pure helpers, the tRPC relay, the
// translation files, a source scan and the form building blocks rendered to HTML. A component
// test that needs a DOM asks for one in its first line (`// @vitest-environment happy-dom`).
// tsconfig keeps JSX for Next to compile; the tests compile it themselves.
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
