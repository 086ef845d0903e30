import { describe, expect, it } from "vitest";
import { appRouter } from "../root";
import { fakeContext } from "../../test/fake-context";

describe("mcp router", () => {
  it("lets an admin add a server with a bearer credential and passes it to the service", async () => {
    const ctx = fakeContext("admin");
    await appRouter.createCaller(ctx).mcp.servers.add({
      name: "tickets",
      url: "https://mcp.example.com/mcp",
      callsPerMinute: 30,
      credential: { bearer: "s3cret" },
    });
    expect(ctx.services.mcp.addServer).toHaveBeenCalledWith(
      {
        name: "tickets",
        url: "https://mcp.example.com/mcp",
        callsPerMinute: 30,
        credential: { bearer: "s3cret" },
        headers: [],
        enabled: true,
      },
      { username: "admin-user" },
    );
  });

  it("refuses operators and viewers: credentials and grants are for admins", async () => {
    for (const role of ["operator", "viewer"] as const) {
      const caller = appRouter.createCaller(fakeContext(role));
      await expect(caller.mcp.servers.list()).rejects.toThrow(/needs an admin/);
      await expect(
        caller.mcp.grants.grant({ subject: "team:ml", server: "tickets", tools: ["*"] }),
      ).rejects.toThrow(/needs an admin/);
    }
  });

  it("names what is wrong in bad input", async () => {
    const caller = appRouter.createCaller(fakeContext("admin"));
    await expect(caller.mcp.servers.add({ name: "Bad Name", url: "https://x" })).rejects.toThrow(
      /server name/,
    );
    await expect(
      caller.mcp.grants.grant({ subject: "group:x", server: "tickets", tools: ["*"] }),
    ).rejects.toThrow(/grant to org:NAME/);
    await expect(
      caller.mcp.grants.grant({ subject: "team:ml", server: "tickets", tools: [] }),
    ).rejects.toThrow(/at least one tool/);
    await expect(
      caller.mcp.servers.add({
        name: "t",
        url: "https://x",
        headers: [{ name: "X-Key", value: "a\r\nInjected: 1" }],
      }),
    ).rejects.toThrow(/no line breaks/);
    await expect(caller.mcp.servers.update({ name: "t", timeoutMs: 5 })).rejects.toThrow(
      /at least 100 ms/,
    );
  });

  it("passes null through on update so a field can be cleared", async () => {
    const ctx = fakeContext("admin");
    await appRouter
      .createCaller(ctx)
      .mcp.servers.update({ name: "tickets", description: null, callsPerMinute: null });
    expect(ctx.services.mcp.updateServer).toHaveBeenCalledWith(
      { name: "tickets", description: null, callsPerMinute: null },
      { username: "admin-user" },
    );
  });
});
