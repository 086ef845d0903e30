// The tRPC side of the release store: what is stored, and removing one.
import { ServiceError, type ReleasesService } from "@llmgw/api";
import type { EventRecorder } from "../events/event-recorder";
import type { ReleaseStore } from "./release-store";

export function createReleasesService(
  store: ReleaseStore,
  events: Pick<EventRecorder, "record">,
): ReleasesService {
  return {
    list: async () =>
      (await store.list()).map((release) => ({ ...release, added: release.added.toISOString() })),
    async remove(version, actor) {
      if (!(await store.remove(version))) {
        throw new ServiceError(
          "not_found",
          `no release ${version} is stored; add it with llmgw ctl release add`,
          {
            code: "release.not_found",
            params: { version },
          },
        );
      }
      events.record("release.removed", version, { version, by: actor.username });
      return { version };
    },
  };
}
