// Why a directory server could not be used, as a code the console words with what to check (the
// DNS name, the port, the CA, the bind DN…), beside the library's own detail for the admin. The
// sign-in page never sees either: a person signing in is told only that sign-in is unavailable,
// and the detail goes to the server log.
import {
  ConfidentialityRequiredError,
  InappropriateAuthError,
  InvalidCredentialsError,
  NoSuchObjectError,
  StrongAuthRequiredError,
  TimeLimitExceededError,
} from "ldapts";
import type { LdapFailureCode } from "@llmgw/api";
import { PlainLdapRefused, type LdapFailure } from "./errors";

// Node's system and TLS error codes (error.code), by what an admin should check.
const BY_NODE_CODE: Readonly<Record<string, LdapFailureCode>> = {
  ENOTFOUND: "dns-not-found",
  EAI_AGAIN: "dns-not-found",
  EAI_NONAME: "dns-not-found",
  ECONNREFUSED: "connection-refused",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  EHOSTDOWN: "unreachable",
  ETIMEDOUT: "timeout",
  ECONNRESET: "connection-closed",
  EPIPE: "connection-closed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "tls-untrusted",
  UNABLE_TO_GET_ISSUER_CERT: "tls-untrusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "tls-untrusted",
  SELF_SIGNED_CERT_IN_CHAIN: "tls-untrusted",
  DEPTH_ZERO_SELF_SIGNED_CERT: "tls-untrusted",
  CERT_UNTRUSTED: "tls-untrusted",
  CERT_SIGNATURE_FAILURE: "tls-untrusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "tls-name-mismatch",
  CERT_HAS_EXPIRED: "tls-expired",
  CERT_NOT_YET_VALID: "tls-expired",
};

function byClass(error: unknown): LdapFailureCode | null {
  if (error instanceof PlainLdapRefused) return "plain-ldap";
  if (error instanceof InvalidCredentialsError || error instanceof InappropriateAuthError)
    return "bind-refused";
  // AD (and Samba) refuse a simple bind over a connection without TLS with strongerAuthRequired.
  if (error instanceof StrongAuthRequiredError || error instanceof ConfidentialityRequiredError)
    return "encryption-required";
  if (error instanceof NoSuchObjectError) return "base-not-found";
  if (error instanceof TimeLimitExceededError) return "timeout";
  return null;
}

/** The code and detail of whatever connecting, binding or searching failed with. */
export function classifyLdapFailure(error: unknown): LdapFailure {
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e?.message === "string" ? e.message : "";
  const detail = message || String(e?.code ?? error);
  const nodeCode = typeof e?.code === "string" ? BY_NODE_CODE[e.code] : undefined;
  const code =
    byClass(error) ??
    nodeCode ??
    // ldapts words its own timeouts ("Connection timeout", "…: Operation timed out").
    (/\btime(d)? ?out\b/i.test(message) ? "timeout" : null) ??
    (/socket hang up|disconnected before secure TLS/i.test(message) ? "connection-closed" : null) ??
    "other";
  return { code, detail };
}

/** The library's error in words for an admin, with what to do when the cause is known. */
export function describeLdapError(error: unknown): string {
  const e = error as Error & { code?: string | number };
  if (e instanceof InvalidCredentialsError) return "invalid credentials";
  // AD (and Samba) refuse a simple bind over a connection without TLS with strongerAuthRequired.
  if (e instanceof StrongAuthRequiredError)
    return (
      "the server requires an encrypted connection for password binds (Strong(er) " +
      `authentication required: ${e.message}); use ldaps:// or turn on StartTLS`
    );
  return e.message || String(e.code ?? error);
}
