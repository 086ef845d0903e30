// `llmgw_leader` and `llmgw_leader_lease_expiry_timestamp_seconds`, read from the elector at each
// scrape, so two control planes on one store can be told apart on a dashboard.
import { Gauge, type Registry } from "prom-client";
import type { LeaderElector } from "./elector";

export function registerLeaderMetrics(
  registry: Registry,
  elector: Pick<LeaderElector, "isLeader" | "lease" | "ownerName">,
): void {
  new Gauge({
    name: "llmgw_leader",
    help: "1 while this control plane holds the store's control-plane lease, 0 while it stands by.",
    labelNames: ["owner_name"],
    registers: [registry],
    collect() {
      this.reset();
      this.set({ owner_name: elector.ownerName }, elector.isLeader() ? 1 : 0);
    },
  });
  new Gauge({
    name: "llmgw_leader_lease_expiry_timestamp_seconds",
    help: "When the control-plane lease, as this process last read it (its own or another's), expires (Unix seconds, the store's clock); 0 before the first read.",
    registers: [registry],
    collect() {
      this.reset();
      const lease = elector.lease();
      if (lease) this.set(Math.floor(lease.expiresAt.getTime() / 1000));
    },
  });
}
