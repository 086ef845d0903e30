// Whether the browser offers to install the console now, for the command palette.
import { useSyncExternalStore } from "react";
import { hasInstallOffer, subscribeInstallOffer } from "../lib/pwa/install-prompt";

export function useInstallOffer(): boolean {
  return useSyncExternalStore(subscribeInstallOffer, hasInstallOffer, () => false);
}
