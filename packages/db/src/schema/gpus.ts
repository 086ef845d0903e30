// Cards as each node last described them at registration. Live samples (utilisation,
// temperature) stay in memory; this table is the inventory.
import { boolean, doublePrecision, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { bytes, updatedAt } from "./columns";
import { nodes } from "./nodes";

export const gpus = pgTable(
  "gpus",
  {
    uuid: text("uuid").primaryKey(),
    nodeId: text("node_id")
      .notNull()
      .references(() => nodes.id, { onDelete: "cascade" }),
    index: integer("index").notNull(),
    name: text("name").notNull(),
    memoryBytesTotal: bytes("memory_bytes_total").notNull(),
    computeCapability: text("compute_capability"),
    /** The fastest generation card and slot allow together. */
    pcieGenMax: integer("pcie_gen_max"),
    /** The fastest generation the card itself supports; null from agents that do not report it. */
    pcieGenCardMax: integer("pcie_gen_card_max"),
    pcieGenCurrent: integer("pcie_gen_current"),
    pcieWidthMax: integer("pcie_width_max"),
    pcieWidthCurrent: integer("pcie_width_current"),
    pciBusId: text("pci_bus_id"),
    isMigEnabled: boolean("is_mig_enabled").notNull().default(false),
    powerLimitWatts: doublePrecision("power_limit_watts"),
    updatedAt: updatedAt(),
  },
  (table) => [index("gpus_node_id_idx").on(table.nodeId)],
);

export type GpuRow = typeof gpus.$inferSelect;
export type NewGpuRow = typeof gpus.$inferInsert;
