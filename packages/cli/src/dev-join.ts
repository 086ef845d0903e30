// `llmgw dev` joins its simulated agents the way an operator joins a real node: a join token made
// through the API as the admin, and the CA's fingerprint read from the server's home. Agents that
// joined on an earlier run keep their certificates and ignore both.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { caFingerprint } from "@llmgw/pki";
import { createApiClient, signInWithPassword } from "./ctl/client";

export interface DevJoin {
  token: string;
  caSha256: string;
}

export async function devJoin(
  apiUrl: string,
  homeDir: string,
  admin: { username: string; password: string },
  agents: number,
): Promise<DevJoin> {
  const { token: session } = await signInWithPassword(apiUrl, admin.username, admin.password);
  const api = createApiClient(apiUrl, session);
  try {
    const created = await api.joinTokens.create.mutate({
      ttlSeconds: 600,
      uses: agents,
      description: "llmgw dev: the simulated fleet",
    });
    const caPem = readFileSync(join(homeDir, "pki", "ca.crt"), "utf8");
    return { token: created.token, caSha256: caFingerprint(caPem) };
  } finally {
    await api.auth.logout.mutate().catch(() => undefined);
  }
}
