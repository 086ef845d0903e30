// llmgw_engine_install{node,engine,state}: 1 for the state each engine install is in and 0 for the
// others, so an alert on state="failed" fires, and stops, on one series per node and engine.
import type { NodeView } from "@llmgw/api";
import { Gauge, type Registry } from "prom-client";

const STATES = ["installing", "ready", "failed"] as const;

export function registerEngineInstallMetrics(
  registry: Registry,
  nodes: { list(): Promise<Array<Pick<NodeView, "name" | "engineInstalls">>> },
): void {
  new Gauge({
    name: "llmgw_engine_install",
    help: "Engines agents install themselves (llama.cpp), per node: 1 for the state it is in.",
    labelNames: ["node", "engine", "state"],
    registers: [registry],
    async collect() {
      const list = await nodes.list();
      this.reset();
      for (const node of list) {
        for (const install of node.engineInstalls) {
          for (const state of STATES)
            this.set(
              { node: node.name, engine: install.engine, state },
              state === install.state ? 1 : 0,
            );
        }
      }
    },
  });
}
