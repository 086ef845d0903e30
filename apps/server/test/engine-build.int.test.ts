// `ctl engine-build` end to end: a real agent process over the real WebSocket receives the build an
// admin chose, reports it applied in its heartbeats (vLLM withheld under none), gets the stored
// choice again when it reconnects, and the choice survives a restart of the control plane.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@llmgw/testing";
import { codeOf, startFleet, type Fleet } from "./harness";

const NODE = "it-build";

async function appliedBuild(fleet: Fleet, choice: string) {
  return waitFor(
    async () => {
      const node = await fleet.api.nodes.get.query({ id: NODE });
      return node.state === "ready" && node.engineBuild.applied?.choice === choice
        ? node
        : undefined;
    },
    { what: `${NODE} applying engine build ${choice}`, timeoutMs: 30_000 },
  );
}

describe("engine build per node", () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet();
    await fleet.startAgent(NODE, "h100x8");
  });
  afterAll(async () => fleet.stop());

  it("sends the choice at once, again on reconnect, and keeps it across a server restart", async () => {
    // Nobody chose yet: auto, which the simulated driver (590) resolves to CUDA 13.
    const fresh = await appliedBuild(fleet, "auto");
    expect(fresh.engineBuild).toMatchObject({ choice: "auto", setBy: null });
    expect(fresh.engineBuild.applied?.build).toBe("cu13");
    expect(fresh.engines).toContain("vllm");

    const set = await fleet.api.nodes.engineBuild.mutate({ id: NODE, build: "none" });
    expect(set.engineBuild).toMatchObject({ choice: "none", setBy: "admin" });
    const none = await appliedBuild(fleet, "none");
    expect(none.engineBuild.applied).toMatchObject({ build: "none", withheldEngines: ["vllm"] });
    expect(none.engines).not.toContain("vllm");

    // Changed while the node is away: the stored choice reaches it when it registers again.
    await fleet.agent(NODE).process.stop();
    await fleet.api.nodes.engineBuild.mutate({ id: NODE, build: "cu129" });
    await fleet.startAgent(NODE, "h100x8");
    const back = await appliedBuild(fleet, "cu129");
    expect(back.engineBuild.applied?.installSource).toContain("whl/cu129");
    expect(back.engines).toContain("vllm");

    await fleet.restart();
    const restarted = await appliedBuild(fleet, "cu129");
    expect(restarted.engineBuild).toMatchObject({ choice: "cu129", setBy: "admin" });
  });

  it("refuses a word that is no build, and a node nobody knows, with their codes", async () => {
    const refusal = async (work: Promise<unknown>) => {
      try {
        await work;
        return "went through";
      } catch (error) {
        if (!(error instanceof TRPCClientError)) throw error;
        return (error.data as { refusal?: { code: string; params: unknown } }).refusal;
      }
    };
    expect(await refusal(fleet.api.nodes.engineBuild.mutate({ id: NODE, build: "cu12" }))).toEqual({
      code: "node.engine_build_invalid",
      params: { build: "cu12", builds: "auto, cu13, cu129, none" },
    });
    expect(
      await refusal(fleet.api.nodes.engineBuild.mutate({ id: "no-such-node", build: "cu13" })),
    ).toMatchObject({ code: "node.not_found", params: { node: "no-such-node" } });
    expect(await codeOf(fleet.api.nodes.engineBuild.mutate({ id: NODE, build: "cu12" }))).toBe(
      "BAD_REQUEST",
    );
  });
});
