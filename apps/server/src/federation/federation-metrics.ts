// Per-peer metrics on /metrics: whether it is in routing, how long its /ready took, how many of
// its models are offered, and what its requests ended with.
import { Counter, Gauge, type Registry } from "prom-client";
import type { Federation } from "./federation";

export function registerFederationMetrics(
  registry: Registry,
  federation: Federation,
): { peerRequest(peer: string, outcome: string): void } {
  const registers = [registry];
  new Gauge({
    name: "llmgw_federation_peer_up",
    help: "1 while the peer is in routing (its last /ready check passed), 0 while it is out.",
    labelNames: ["peer"],
    registers,
    collect() {
      this.reset();
      for (const peer of federation.livePeers())
        this.set({ peer: peer.row.name }, peer.isChecked && !peer.breaker.isOpen ? 1 : 0);
    },
  });
  new Gauge({
    name: "llmgw_federation_peer_ready_seconds",
    help: "How long the peer's last /ready check took.",
    labelNames: ["peer"],
    registers,
    collect() {
      this.reset();
      for (const peer of federation.livePeers())
        if (peer.latencyMs !== null) this.set({ peer: peer.row.name }, peer.latencyMs / 1_000);
    },
  });
  new Gauge({
    name: "llmgw_federation_peer_models",
    help: "Models of the peer offered here (withdrawn ones left out).",
    labelNames: ["peer"],
    registers,
    collect() {
      this.reset();
      for (const peer of federation.livePeers())
        this.set(
          { peer: peer.row.name },
          [...peer.models.values()].filter((model) => !model.isWithdrawn).length,
        );
    },
  });
  const requests = new Counter({
    name: "llmgw_federation_peer_requests_total",
    help: "Requests sent (or refused at once) to each peer, by the peer's status or why not.",
    labelNames: ["peer", "outcome"],
    registers,
  });
  return { peerRequest: (peer, outcome) => requests.inc({ peer, outcome }) };
}
