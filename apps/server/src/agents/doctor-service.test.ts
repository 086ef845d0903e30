import { ServiceError } from "@llmgw/api";
import {
  AGENT_FEATURE,
  create,
  DoctorCheckStatus,
  EnvelopeSchema,
  RegisterSchema,
  type EnvelopeInit,
} from "@llmgw/proto";
import { describe, expect, it } from "vitest";
import { FleetRegistry } from "../fleet/registry";
import { createDoctorService } from "./doctor-service";
import { NodeLinks } from "./node-links";

const SERVER_NOW_MS = 1_764_000_000_000;

function fleetWith(features: string[]) {
  const registry = new FleetRegistry();
  const links = new NodeLinks();
  const sent: EnvelopeInit[] = [];
  registry.connect(
    create(RegisterSchema, { nodeId: "id-1", nodeName: "gpu-1", agentVersion: "0.9.0", features }),
    1,
    0,
  );
  links.attach("id-1", 1, {
    remoteAddress: "10.0.0.1",
    certificateNodeId: "id-1",
    send: (init) => sent.push(init),
    close: () => undefined,
  });
  return { registry, links, sent, nowMs: () => SERVER_NOW_MS };
}

describe("createDoctorService", () => {
  it("refuses an agent that does not announce doctor at once, with its code, sending nothing", async () => {
    const fleet = fleetWith([AGENT_FEATURE.logs]);
    const refusal = await createDoctorService(fleet, 60_000)
      .run("gpu-1")
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceError);
    expect((refusal as ServiceError).refusal?.code).toBe("node.agent_too_old");
    expect(fleet.sent).toEqual([]);
  });

  it("sends its clock and reads the reply, an unknown status as a warning", async () => {
    const fleet = fleetWith([AGENT_FEATURE.doctor]);
    const pending = createDoctorService(fleet, 60_000).run("gpu-1");
    expect(fleet.sent).toEqual([
      expect.objectContaining({
        msg: { case: "doctorRequest", value: { serverTimeMs: BigInt(SERVER_NOW_MS) } },
      }),
    ]);
    const check = (id: string, status: DoctorCheckStatus) => ({ id, status, summary: id, fix: "" });
    fleet.links.answer(
      "id-1",
      create(EnvelopeSchema, {
        requestId: fleet.sent[0]?.requestId,
        msg: {
          case: "doctorReply",
          value: {
            checks: [
              check("disk.cache", DoctorCheckStatus.PASS),
              check("from.newer.agent", 7 as DoctorCheckStatus),
            ],
          },
        },
      }),
    );
    expect(await pending).toEqual({
      node: "gpu-1",
      status: "warn",
      checks: [
        { id: "disk.cache", status: "pass", summary: "disk.cache", fix: "" },
        { id: "from.newer.agent", status: "warn", summary: "from.newer.agent", fix: "" },
      ],
    });
  });
});
