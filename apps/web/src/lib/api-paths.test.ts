import { SESSION_COOKIE, TRPC_BATCH_CALLS_MAX, TRPC_PATH } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import { CONSOLE_BATCH_CALLS_MAX, CONSOLE_TRPC_PATH } from "./api-paths";

describe("CONSOLE_TRPC_PATH", () => {
  it("is the path the server mounts tRPC on, so the proxy maps one to one", () => {
    expect(CONSOLE_TRPC_PATH).toBe(TRPC_PATH);
    expect(SESSION_COOKIE).toBe("llmgw_session");
  });

  it("batches no more calls than the server takes in one request", () => {
    expect(CONSOLE_BATCH_CALLS_MAX).toBe(TRPC_BATCH_CALLS_MAX);
  });
});
