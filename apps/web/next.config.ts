// Next configuration for the console. The console owns no data: everything it shows comes from the
// control plane through the tRPC proxy in app/api/trpc, so there is nothing to configure here
// beyond compiling the workspace's TypeScript contract package.
import type { NextConfig } from "next";

export const nextConfig: NextConfig = {
  // @llmgw/api ships TypeScript sources (its exports point at src/index.ts).
  transpilePackages: ["@llmgw/api"],
  // The console is a separate process; no header should advertise the framework to the fleet's users.
  poweredByHeader: false,
  reactStrictMode: true,
};

// Next requires the configuration as the default export.
export default nextConfig;
