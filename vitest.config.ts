// One vitest run over every package: unit tests beside the code, integration tests
// (`*.int.test.ts`) that start real servers, agents and PostgreSQL.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
    // Integration tests start processes and databases; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});
