// `controlPlanes.list`: the directory's rows with who leads and for how long, newest word first
// from memory (the directory reads the store every third of a lease).
import type { ControlPlanesService, ControlPlaneView } from "@llmgw/api";
import type { ControlPlaneDirectory } from "./control-planes";
import type { LeaseState } from "./lease";

export interface ControlPlanesServiceOptions {
  directory: Pick<ControlPlaneDirectory, "all">;
  /** This process's owner id. */
  self: string;
  /** Who holds the lease and since when, as last read. */
  lease(): Pick<LeaseState, "owner" | "acquiredAt"> | undefined;
  nowMs(): number;
}

export function createControlPlanesService(
  options: ControlPlanesServiceOptions,
): ControlPlanesService {
  return {
    list: () => {
      const lease = options.lease();
      const nowMs = options.nowMs();
      // The holder as last read: a lapsed lease stays its holder's until another claims it.
      const holder = lease?.owner ?? null;
      const views: ControlPlaneView[] = options.directory.all().map((row) => ({
        name: row.name,
        apiUrl: row.apiUrl,
        agentUrls: row.agentUrls,
        version: row.version,
        isLeader: row.owner === holder,
        isLive: row.isLive,
        startedAt: row.startedAt.toISOString(),
        lastSeenAt: row.lastSeenAt.toISOString(),
        leaseAgeMs: row.owner === holder && lease ? nowMs - lease.acquiredAt.getTime() : null,
        isThis: row.owner === options.self,
      }));
      return Promise.resolve(views);
    },
  };
}
