// Add to a package's vitest `setupFiles` ("@llmgw/testing/vitest-setup") so that every process,
// PostgreSQL server and temp dir a test file started is stopped after it, even when a test failed.
import { afterAll } from "vitest";
import { cleanupAll } from "./cleanup-registry.ts";

afterAll(cleanupAll);
