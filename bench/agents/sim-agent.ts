// One simulated agent session: the node's own certificate over mutual TLS, a Register built from
// apps/agent's simulated hardware, then a Heartbeat every interval with samples that move as the
// simulation steps. Thousands of these share the harness process; each holds one socket.
import {
  createSimulation,
  registerHardware,
  DIAL_HANDSHAKE_TIMEOUT_MS,
  TlsSessionCache,
  type Simulation,
  type TlsConnector,
} from "@llmgw/agent";
import { AGENT_WS_PATH, decodeEnvelope, encodeEnvelope, type EnvelopeInit } from "@llmgw/proto";
import type { ConnectionOptions, TLSSocket } from "node:tls";
import WebSocket from "ws";
import type { DialPhase } from "./storm-timeline";

const PROFILE = "h100x8";

export interface NodeTls {
  ca: string;
  cert: string;
  key: string;
}

export interface Target {
  /** `wss://host:port`, the agent port of llmgw or the bare server. */
  url: string;
  /** llmgw answers Register with RegisterAck; the bare server answers nothing. */
  isAcked: boolean;
}

const ACK_TIMEOUT_MS = 30_000;

export interface Dial {
  openMs: number;
  ackMs: number;
  isResumed: boolean;
  /** From dialing to the TCP connection established (the kernel's accept queue included). */
  tcpMs: number;
  /** From dialing to the TLS handshake finished (the server's handshake gate included). */
  tlsMs: number;
}

export class SimAgent {
  readonly simulation: Simulation;
  private ws: WebSocket | undefined;
  /** As the real agent does: the server's last TLS session is offered again on reconnect. */
  private readonly tlsSessions = new TlsSessionCache();
  private timer: NodeJS.Timeout | undefined;
  private marker: { value: bigint; sent: (atMs: number) => void } | undefined;
  heartbeatsSent = 0;
  /** When the current socket was registered (acked, or opened for the bare server); unset while out. */
  registeredAtMs: number | undefined;
  /**
   * The last dial that registered: ms from dialing to the socket open (TCP, TLS, upgrade), then to
   * the RegisterAck; and within the open, from dialing to TCP connected and to TLS secured.
   */
  lastDial: Dial | undefined;

  constructor(
    readonly nodeId: string,
    private readonly tls: NodeTls,
    private readonly intervalMs: number,
    seed: number,
  ) {
    this.simulation = createSimulation(PROFILE, nodeId, seed);
  }

  /**
   * Opens a socket, registers, and starts heartbeating after `firstBeatMs` (spreads the fleet).
   * `observe` hears each phase the dial reaches (a storm's timeline).
   */
  async connect(
    target: Target,
    firstBeatMs: number,
    observe?: (phase: DialPhase, afterTcp?: boolean) => void,
  ): Promise<void> {
    const phases = { tcpMs: Number.NaN, tlsMs: Number.NaN };
    observe?.("dial");
    try {
      await this.dial(target, firstBeatMs, phases, observe);
    } catch (error) {
      observe?.("failed", !Number.isNaN(phases.tcpMs) && Number.isNaN(phases.tlsMs));
      throw error;
    }
    observe?.("registered");
  }

  private async dial(
    target: Target,
    firstBeatMs: number,
    phases: { tcpMs: number; tlsMs: number },
    observe?: (phase: DialPhase) => void,
  ): Promise<void> {
    this.stop();
    this.registeredAtMs = undefined;
    const dialMs = performance.now();
    const ws = new WebSocket(`${target.url}${AGENT_WS_PATH}`, {
      ...this.tls,
      createConnection: this.timedConnector(target.url, dialMs, phases, observe),
      perMessageDeflate: false,
      // As apps/agent does: a dial whose opening handshake has not finished in 10 s is given up
      // and dialled again after the backoff (without it a storm's dials waited up to 81 s).
      handshakeTimeout: DIAL_HANDSHAKE_TIMEOUT_MS,
    });
    this.ws = ws;
    ws.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const openMs = performance.now();
    const registered = target.isAcked ? this.awaitAck(ws) : Promise.resolve();
    ws.send(encodeEnvelope(this.registerFrame()));
    await registered;
    this.registeredAtMs = Date.now();
    const tcp = (ws as unknown as { _socket?: { isSessionReused?(): boolean } })._socket;
    this.lastDial = {
      openMs: openMs - dialMs,
      ackMs: performance.now() - openMs,
      isResumed: tcp?.isSessionReused?.() ?? false,
      ...phases,
    };
    const beat = () => this.beat();
    this.timer = setTimeout(() => {
      beat();
      this.timer = setInterval(beat, this.intervalMs);
    }, firstBeatMs);
  }

  /** The agent's own connector, noting when TCP connected and when TLS finished into `phases`. */
  private timedConnector(
    url: string,
    dialMs: number,
    phases: { tcpMs: number; tlsMs: number },
    observe?: (phase: DialPhase) => void,
  ): TlsConnector {
    const open = this.tlsSessions.connector(url, this.tls.cert) as unknown as (
      options: ConnectionOptions,
    ) => TLSSocket;
    const timed = (options: ConnectionOptions) => {
      const socket = open(options);
      socket.once("connect", () => {
        phases.tcpMs = performance.now() - dialMs;
        observe?.("tcp");
      });
      socket.once("secureConnect", () => {
        phases.tlsMs = performance.now() - dialMs;
        observe?.("tls");
      });
      return socket;
    };
    return timed as unknown as TlsConnector;
  }

  /** The next scheduled heartbeat carries `value` as card 0's used memory; resolves with its send time. */
  markNext(value: bigint): Promise<number> {
    return new Promise((resolve) => {
      this.marker = { value, sent: resolve };
    });
  }

  /** Cuts the socket without a close handshake, as a network drop or a crashed server does. */
  drop(): void {
    this.stop();
    this.registeredAtMs = undefined;
  }

  private stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.ws?.terminate();
    this.ws = undefined;
  }

  private awaitAck(ws: WebSocket): Promise<void> {
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(
        () => reject(new Error(`${this.nodeId}: no RegisterAck in ${ACK_TIMEOUT_MS} ms`)),
        ACK_TIMEOUT_MS,
      );
      ws.on("message", (data: Buffer) => {
        const { msg } = decodeEnvelope(new Uint8Array(data));
        if (msg.case === "registerAck") {
          clearTimeout(deadline);
          resolve();
        } else if (msg.case === "ping")
          this.send({ msg: { case: "pong", value: { sentAtMs: msg.value.sentAtMs } } });
      });
      ws.once("close", (code, reason) => {
        clearTimeout(deadline);
        reject(
          new Error(`${this.nodeId}: closed before RegisterAck: ${code} ${reason.toString()}`),
        );
      });
    });
  }

  private beat(): void {
    const { gpus, host } = this.simulation.step();
    const marker = this.marker;
    this.marker = undefined;
    const first = gpus[0];
    if (marker && first) first.memoryBytesUsed = marker.value;
    this.send({
      msg: { case: "heartbeat", value: { sentAtMs: BigInt(Date.now()), gpus, ...host } },
    });
    this.heartbeatsSent += 1;
    marker?.sent(Date.now());
  }

  private send(init: EnvelopeInit): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(encodeEnvelope(init));
  }

  private registerFrame(): EnvelopeInit {
    return {
      requestId: "register",
      msg: { case: "register", value: simRegister(this.nodeId, this.simulation) },
    };
  }
}

/** The Register a simulated H100 ×8 node sends (the agents bench's and the memory harness's). */
export function simRegister(nodeId: string, simulation: Pick<Simulation, "gpus" | "host">) {
  const { gpus, host } = simulation;
  return {
    nodeId,
    nodeName: nodeId,
    agentVersion: "bench",
    features: ["replicas"],
    engines: ["sim"],
    simulated: true,
    simulationProfile: PROFILE,
    hardware: registerHardware(gpus, host),
  };
}
