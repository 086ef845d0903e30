// A real local OpenID provider shaped like Entra ID, for sign-in tests: oauth2-mock-server behind
// a front that serves it under `/{tenant}/v2.0`, so the issuer, discovery and endpoints look like
// Microsoft's tenant-specific ones. Tokens carry tid, oid, name, preferred_username and groups;
// a test may change the claims (expired, wrong audience or issuer, overage) or the finished ID
// token (forged signature, alg none) before it is answered.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Server } from "oauth2-mock-server";
import { registerCleanup } from "./cleanup-registry.ts";

export interface EntraUser {
  oid: string;
  name: string;
  preferredUsername: string;
  groups?: string[];
  /** Replace `groups` with the overage marker Entra sends past 200 groups. */
  overage?: boolean;
}

export interface EntraProvider {
  authorityUrl: string;
  issuer: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** Who the next sign-ins are. */
  user: EntraUser;
  /** Changes the claims of the next tokens (null: none). */
  claims: ((payload: Record<string, unknown>) => void) | null;
  /** Changes the finished ID token text (null: none). */
  idToken: ((token: string) => string) | null;
  stop(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The same token with its payload changed and the original signature kept: a forgery. */
export function forgeIdToken(token: string, change: (payload: Record<string, unknown>) => void) {
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as Record<
    string,
    unknown
  >;
  change(claims);
  return `${header}.${b64(claims)}.${signature}`;
}

/** The same claims under `alg: none` with no signature. */
export function unsignedIdToken(token: string) {
  const payload = token.split(".")[1] ?? "";
  return `${b64({ alg: "none", typ: "JWT" })}.${payload}.`;
}

export async function startEntraProvider(): Promise<EntraProvider> {
  const tenantId = randomUUID();
  const mock = new OAuth2Server();
  await mock.issuer.keys.generate("RS256");
  const prefix = `/${tenantId}/v2.0`;
  const front: Server = createServer((req, res) => {
    if (req.url?.startsWith(prefix)) req.url = req.url.slice(prefix.length) || "/";
    mock.service.requestHandler(req, res);
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const authorityUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  mock.issuer.url = `${authorityUrl}${prefix}`;
  const provider: EntraProvider = {
    authorityUrl,
    issuer: `${authorityUrl}${prefix}`,
    tenantId,
    clientId: randomUUID(),
    clientSecret: `secret-${randomUUID()}`,
    user: { oid: randomUUID(), name: "Ada Lovelace", preferredUsername: "ada@contoso.example" },
    claims: null,
    idToken: null,
    stop: () =>
      new Promise<void>((resolve) => {
        if (!front.listening) return resolve();
        front.close(() => resolve());
        front.closeAllConnections();
      }),
  };
  mock.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
    const { user } = provider;
    Object.assign(token.payload, {
      tid: tenantId,
      oid: user.oid,
      sub: `pairwise-${user.oid}`,
      name: user.name,
      preferred_username: user.preferredUsername,
      ver: "2.0",
    });
    if (user.overage) {
      delete token.payload.groups;
      token.payload._claim_names = { groups: "src1" };
      token.payload._claim_sources = {
        src1: { endpoint: `https://graph.microsoft.com/v1.0/users/${user.oid}/getMemberObjects` },
      };
    } else if (user.groups) token.payload.groups = user.groups;
    provider.claims?.(token.payload);
  });
  mock.service.on("beforeResponse", (response: { body: Record<string, unknown> }) => {
    const idToken = response.body.id_token;
    if (typeof idToken === "string" && provider.idToken)
      response.body.id_token = provider.idToken(idToken);
  });
  // In-process: it ends with the test process, so there is nothing to kill at exit.
  registerCleanup({ name: "entra provider", stop: provider.stop, killNow: () => undefined });
  return provider;
}
