import { SESSION_COOKIE, TRPC_PATH } from "@llmgw/api";
import { describe, expect, it } from "vitest";
import { CONSOLE_TRPC_PATH } from "./api-paths";

describe("CONSOLE_TRPC_PATH", () => {
  it("is the path the server mounts tRPC on, so the proxy maps one to one", () => {
    expect(CONSOLE_TRPC_PATH).toBe(TRPC_PATH);
    expect(SESSION_COOKIE).toBe("llmgw_session");
  });
});
