// Per-mirror metrics on /metrics: whether its last check answered, how long the check took, and
// how many of the files the catalog loads from the mirrors it holds and lacks.
import { Gauge, type Registry } from "prom-client";
import type { MirrorMonitor } from "./mirror-monitor";

export function registerMirrorMetrics(registry: Registry, monitor: MirrorMonitor): void {
  const registers = [registry];
  new Gauge({
    name: "llmgw_mirror_up",
    help: "1 while the mirror's last check answered, 0 while it did not (absent before the first).",
    labelNames: ["mirror"],
    registers,
    collect() {
      this.reset();
      for (const state of monitor.liveStates())
        if (state.isUp !== undefined) this.set({ mirror: state.setting.name }, state.isUp ? 1 : 0);
    },
  });
  new Gauge({
    name: "llmgw_mirror_check_seconds",
    help: "How long the mirror's last check took.",
    labelNames: ["mirror"],
    registers,
    collect() {
      this.reset();
      for (const state of monitor.liveStates())
        if (state.latencyMs !== null)
          this.set({ mirror: state.setting.name }, state.latencyMs / 1_000);
    },
  });
  new Gauge({
    name: "llmgw_mirror_catalog_files",
    help: "Files the catalog loads from the mirrors, by whether the mirror held each at its last look.",
    labelNames: ["mirror", "held"],
    registers,
    collect() {
      this.reset();
      for (const state of monitor.liveStates()) {
        const held = [...state.holds.values()].filter(Boolean).length;
        this.set({ mirror: state.setting.name, held: "yes" }, held);
        this.set({ mirror: state.setting.name, held: "no" }, state.holds.size - held);
      }
    },
  });
}
