// This cluster's stable id: made once, the first time a server starts on the store, and kept in
// `settings`, so every control plane of the cluster (and every restart) answers the same one.
// Peers see it in x-llmgw-hop; it is how a request knows it came back round a loop.
import { randomUUID } from "node:crypto";
import { eq, settings, type Database } from "@llmgw/db";

const CLUSTER_ID_KEY = "cluster.id";

export async function loadOrCreateClusterId(db: Database): Promise<string> {
  // Two control planes starting at once both insert; the second's insert does nothing and both
  // read the one row that won.
  await db
    .insert(settings)
    .values({ key: CLUSTER_ID_KEY, value: randomUUID() })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, CLUSTER_ID_KEY));
  if (typeof row?.value !== "string") throw new Error("the cluster id was not stored");
  return row.value;
}
