import { defineConfig } from "vitest/config";

// Starting a real PostgreSQL takes a few seconds on a busy 2-core machine; give hooks the same room.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ["./src/vitest-setup.ts"],
  },
});
