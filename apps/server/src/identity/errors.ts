// The errors identity throws for callers to tell apart. The sign-in ones are matched by name in
// auth-service.ts (a refusal the person may read, wrong credentials, or "unavailable" with the
// reason only in the server log); the directory ones say why no LDAP server could be used; a
// SCIM error carries the HTTP status and scimType the SCIM client expects.
import type { LdapFailureCode } from "@llmgw/api";

/** A sign-in refused with a reason the person signing in may read. */
export class SignInRefused extends Error {
  override readonly name = "SignInRefused";
}

/** A wrong name or password: answered like an unknown name, so it tells nothing about either. */
export class WrongCredentials extends Error {
  override readonly name = "WrongCredentials";
}

/**
 * Sign-in could not be tried: no server could be used, or the setup is incomplete. The person
 * signing in is told only that; the reason went to the server log, since the public sign-in page
 * must not show the directory's address or error codes to whoever types a name.
 */
export class SignInUnavailable extends Error {
  override readonly name = "SignInUnavailable";
  constructor() {
    super("sign-in with Active Directory is unavailable right now");
  }
}

export interface LdapFailure {
  code: LdapFailureCode;
  /** The library's message, for admins and the server log only. */
  detail: string;
}

/** Thrown before connecting to ldap:// when neither StartTLS nor insecure is allowed. */
export class PlainLdapRefused extends Error {
  override readonly name = "PlainLdapRefused";
  constructor(url: string) {
    super(`${url} is plain LDAP: turn on StartTLS, use ldaps://, or allow insecure explicitly`);
  }
}

/** No configured server could be used; `failures` says why for each (never shown to a person). */
export class DirectoryUnavailable extends Error {
  override readonly name = "DirectoryUnavailable";
  constructor(readonly failures: readonly { url: string; failure: LdapFailure }[]) {
    super(
      `no directory server could be used (${failures
        .map((f) => `${f.url}: ${f.failure.code}: ${f.failure.detail}`)
        .join("; ")})`,
    );
  }
}

/** A SCIM request refused with the HTTP status and, where RFC 7644 names one, the scimType. */
export class ScimError extends Error {
  override readonly name = "ScimError";
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: string,
  ) {
    super(message);
  }
}
