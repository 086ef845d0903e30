// CPU time of decoding one heartbeat frame, as the agent port decodes each one: the bench's own
// simulated H100 ×8 Heartbeat, decoded over and over in this process with the last 2,000 kept
// alive (the registry keeps each node's latest, so decoded frames live long enough to be promoted
// as on the server). Process CPU time (user + system) per frame, garbage collection included.
// `tsx agents/decode-cost.ts [--frames 100000] [--rounds 5]`; the median round is the figure.
import { createSimulation } from "@llmgw/agent";
import { decodeEnvelope, encodeEnvelope, type Envelope } from "@llmgw/proto";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";

const KEPT_ALIVE = 2_000;

function heartbeatFrame(): Uint8Array {
  const simulation = createSimulation("h100x8", "decode-cost", 1);
  simulation.step();
  const { gpus, host } = simulation.step();
  return encodeEnvelope({
    msg: { case: "heartbeat", value: { sentAtMs: BigInt(Date.now()), gpus, ...host } },
  });
}

/** µs of process CPU per decoded frame over `frames` decodes. */
function round(frame: Uint8Array, frames: number): number {
  const kept = new Array<Envelope | undefined>(KEPT_ALIVE);
  const before = process.cpuUsage();
  for (let at = 0; at < frames; at += 1) kept[at % KEPT_ALIVE] = decodeEnvelope(frame);
  const used = process.cpuUsage(before);
  if (kept[0]?.msg.case !== "heartbeat") throw new Error("the frame did not decode to a heartbeat");
  return (used.user + used.system) / frames;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      frames: { type: "string", default: "100000" },
      rounds: { type: "string", default: "5" },
    },
  });
  const frames = Number(values.frames);
  const rounds = Number(values.rounds);
  const frame = heartbeatFrame();
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(1))
      .join(" / ");
  console.log(
    `decode cost: ${frame.length}-byte heartbeat frame; load average ${load()} at the start`,
  );
  round(frame, Math.min(frames, 20_000));
  const perFrame = Array.from({ length: rounds }, () => round(frame, frames));
  const sorted = [...perFrame].sort((a, b) => a - b);
  console.log(
    `decode cost: ${perFrame.map((us) => us.toFixed(1)).join(", ")} µs CPU a frame; median ${sorted[Math.floor(rounds / 2)]?.toFixed(1)} µs; load average ${load()} at the end`,
  );
}

main();
