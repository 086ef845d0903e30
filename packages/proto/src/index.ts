// The agent wire contract: generated message types plus the two functions every peer uses to put
// an Envelope on the wire and take one off it.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { messageOf } from "@llmgw/domain";
import { EnvelopeSchema, type Envelope } from "./gen/llmgw/agent/v1/agent_pb";

export * from "./gen/llmgw/agent/v1/agent_pb";
export { create } from "@bufbuild/protobuf";

/** WebSocket path agents connect to on the agent port. */
export const AGENT_WS_PATH = "/agent/v1";

/** Largest frame either side accepts; a heartbeat from a 64-GPU node is a few KiB. */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

export type EnvelopeInit = MessageInitShape<typeof EnvelopeSchema>;

export function encodeEnvelope(init: EnvelopeInit): Uint8Array {
  return toBinary(EnvelopeSchema, create(EnvelopeSchema, init));
}

export class FrameDecodeError extends Error {
  override readonly name = "FrameDecodeError";
}

/** Decodes one frame; throws FrameDecodeError for bytes that are not an Envelope with a message. */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  let envelope: Envelope;
  try {
    envelope = fromBinary(EnvelopeSchema, bytes);
  } catch (error) {
    throw new FrameDecodeError(`malformed frame: ${messageOf(error)}`);
  }
  if (envelope.msg.case === undefined) {
    throw new FrameDecodeError("frame carries no message (empty or unknown oneof)");
  }
  return envelope;
}

export { AGENT_FEATURE, FEATURE_FOR_REQUEST, type AgentFeature } from "./features";
