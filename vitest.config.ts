// One vitest configuration for the whole workspace, in two projects:
// - `unit`: pure tests beside the code (`*.test.ts`); no processes, no databases, default timeouts,
//   so `npm run test:unit` answers in seconds.
// - `integration`: `*.int.test.ts`, which start real servers, agents, engines and PostgreSQL; they
//   get generous timeouts and the cleanup hook that stops whatever a file started.
// `npm test` runs both; `vitest run --project unit` (or `integration`) runs one.
import { defineConfig } from "vitest/config";

const TEST_ROOTS = "{apps,packages}/*/{src,test}";

export default defineConfig({
  test: {
    // Integration tests start processes and databases; two at a time suits a 2-core machine.
    maxWorkers: 2,
    projects: [
      {
        // The console's tsconfig keeps JSX for Next to compile; its component tests (which ask for
        // a DOM in their first line, `// @vitest-environment happy-dom`) need it compiled here.
        oxc: { jsx: { runtime: "automatic" } },
        test: {
          name: "unit",
          environment: "node",
          include: [`${TEST_ROOTS}/**/*.test.ts`],
          exclude: ["**/node_modules/**", "**/*.int.test.ts"],
        },
      },
      {
        test: {
          name: "integration",
          environment: "node",
          include: [`${TEST_ROOTS}/**/*.int.test.ts`],
          exclude: ["**/node_modules/**"],
          // A real PostgreSQL or a server with its agents takes seconds to start on a busy machine.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          setupFiles: ["packages/testing/src/vitest-setup.ts"],
        },
      },
    ],
  },
});
