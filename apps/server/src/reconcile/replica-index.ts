// Records grouped by a key (a model, a node), kept as records come and go, so a reader asking for
// one key's few records never walks them all.

export class RecordIndex<T extends { id: string }> {
  private readonly byKey = new Map<string, Map<string, T>>();

  add(key: string, record: T): void {
    let records = this.byKey.get(key);
    if (!records) this.byKey.set(key, (records = new Map()));
    records.set(record.id, record);
  }

  remove(key: string, id: string): void {
    const records = this.byKey.get(key);
    if (!records) return;
    records.delete(id);
    if (records.size === 0) this.byKey.delete(key);
  }

  of(key: string): T[] {
    return [...(this.byKey.get(key)?.values() ?? [])];
  }
}

/** Every node a replica has a shard on: its leader's, then its workers'. */
export function nodeIdsOf(record: {
  nodeId: string;
  shards?: readonly { nodeId: string }[] | null;
}): Set<string> {
  const ids = new Set([record.nodeId]);
  for (const shard of record.shards ?? []) ids.add(shard.nodeId);
  return ids;
}
