"use client";
// What makes the console behave as an installed application: the service worker that keeps the
// shell, the browser's install offer caught as early as possible, and the build this page came
// from (compared with the running console's to announce an upgrade).
import { createContext, useContext, useEffect, type ReactNode } from "react";
import { catchInstallOffer } from "../lib/pwa/install-prompt";
import { registerShellWorker } from "../lib/pwa/register-worker";

// Chromium may offer installation before React mounts anything, so the listener is added when
// this module loads rather than in an effect.
catchInstallOffer();

const ConsoleBuildContext = createContext("development");

/** The console build that served this page. */
export function useConsoleBuild(): string {
  return useContext(ConsoleBuildContext);
}

interface AppRuntimeProps {
  build: string;
  isProduction: boolean;
  children: ReactNode;
}

export function AppRuntime({ build, isProduction, children }: AppRuntimeProps) {
  useEffect(() => registerShellWorker(build, isProduction), [build, isProduction]);
  return <ConsoleBuildContext.Provider value={build}>{children}</ConsoleBuildContext.Provider>;
}
