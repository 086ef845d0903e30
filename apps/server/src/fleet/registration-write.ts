// Nodes' registrations (one or many) written as a few statements whose text never changes: the
// nodes and their cards travel as JSON parameters that PostgreSQL unpacks (json_to_recordset), as
// the usage rows do (gateway/usage-insert.ts). Drizzle building an INSERT of 15 parameters a card
// for a storm's batch of 500 nodes (4,000 cards, 60,000 parameters) was most of the server's
// non-TLS CPU in a reconnect storm: its per-parameter checks and the garbage they left.
import type { Database } from "@llmgw/db";
import { fields, jsonStatement, names, recordset } from "../json-recordset";

/** A node's row as a registration writes it: [JSON field, column, SQL type]. */
const NODE_COLUMNS = [
  ["id", "id", "text"],
  ["name", "name", "text"],
  ["agentVersion", "agent_version", "text"],
  ["labels", "labels", "jsonb"],
  ["engines", "engines", "jsonb"],
  ["features", "features", "jsonb"],
  ["isSimulated", "is_simulated", "boolean"],
  ["simulationProfile", "simulation_profile", "text"],
  ["host", "host", "jsonb"],
  ["memoryBytesTotal", "memory_bytes_total", "bigint"],
  ["diskBytesTotal", "disk_bytes_total", "bigint"],
  ["lastSeenAt", "last_seen_at", "timestamptz"],
] as const;

/** A card's row: [JSON field, column, SQL type]. */
const CARD_COLUMNS = [
  ["uuid", "uuid", "text"],
  ["nodeId", "node_id", "text"],
  ["index", "index", "integer"],
  ["name", "name", "text"],
  ["memoryBytesTotal", "memory_bytes_total", "bigint"],
  ["computeCapability", "compute_capability", "text"],
  ["pcieGenMax", "pcie_gen_max", "integer"],
  ["pcieGenCardMax", "pcie_gen_card_max", "integer"],
  ["pcieGenCurrent", "pcie_gen_current", "integer"],
  ["pcieWidthMax", "pcie_width_max", "integer"],
  ["pcieWidthCurrent", "pcie_width_current", "integer"],
  ["pciBusId", "pci_bus_id", "text"],
  ["isMigEnabled", "is_mig_enabled", "boolean"],
  ["powerLimitWatts", "power_limit_watts", "double precision"],
  ["updatedAt", "updated_at", "timestamptz"],
] as const;

export type NodeRegistrationRow = Record<(typeof NODE_COLUMNS)[number][0], unknown>;
export type CardRegistrationRow = Record<(typeof CARD_COLUMNS)[number][0], unknown>;

// The first sighting is kept on a conflict: first_seen_at is only set for a new row.
const UPSERT_NODES = jsonStatement(
  `INSERT INTO nodes (${names(NODE_COLUMNS)}, first_seen_at) ` +
    `SELECT ${fields(NODE_COLUMNS)}, "lastSeenAt" FROM ${recordset(NODE_COLUMNS)} ` +
    `ON CONFLICT (id) DO UPDATE SET ${NODE_COLUMNS.filter(([, column]) => column !== "id")
      .map(([, column]) => `${column} = excluded.${column}`)
      .join(", ")}`,
);
const ELEMENTS = "(SELECT json_array_elements_text($1::text::json))";
const DELETE_CARDS_OF_NODES = jsonStatement(`DELETE FROM gpus WHERE node_id IN ${ELEMENTS}`);
const DELETE_CARDS_BY_UUID = jsonStatement(`DELETE FROM gpus WHERE uuid IN ${ELEMENTS}`);
const INSERT_CARDS = jsonStatement(
  `INSERT INTO gpus (${names(CARD_COLUMNS)}) SELECT ${fields(CARD_COLUMNS)} FROM ${recordset(CARD_COLUMNS)}`,
);

/**
 * In one transaction: each node's row (inserted, or updated keeping its first sighting), its old
 * cards removed, any card that moved here from another node taken from it, and the cards written.
 */
export async function writeRegistrations(
  db: Database,
  nodeRows: readonly NodeRegistrationRow[],
  cardRows: readonly CardRegistrationRow[],
): Promise<void> {
  if (nodeRows.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(UPSERT_NODES(nodeRows));
    await tx.execute(DELETE_CARDS_OF_NODES(nodeRows.map((row) => row.id)));
    if (cardRows.length === 0) return;
    // A card moved from another node (or a re-imaged node) belongs to this one now.
    await tx.execute(DELETE_CARDS_BY_UUID(cardRows.map((row) => row.uuid)));
    await tx.execute(INSERT_CARDS(cardRows));
  });
}
