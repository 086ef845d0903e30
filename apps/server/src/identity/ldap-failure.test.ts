// Each way a directory server can fail gets its own code (which the console words with what to
// check), from the errors Node and ldapts actually throw; and the sign-in side's refusal lists
// them for the server log only.
import {
  ConfidentialityRequiredError,
  InvalidCredentialsError,
  NoSuchObjectError,
  StrongAuthRequiredError,
} from "ldapts";
import { describe, expect, it } from "vitest";
import { DirectoryUnavailable, PlainLdapRefused } from "./errors";
import { classifyLdapFailure } from "./ldap-failure";

const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("classifyLdapFailure", () => {
  it.each([
    [nodeError("ENOTFOUND", "getaddrinfo ENOTFOUND dc1.corp.example"), "dns-not-found"],
    [nodeError("EAI_AGAIN", "getaddrinfo EAI_AGAIN dc1.corp.example"), "dns-not-found"],
    [nodeError("ECONNREFUSED", "connect ECONNREFUSED 10.0.0.5:636"), "connection-refused"],
    [nodeError("EHOSTUNREACH", "connect EHOSTUNREACH 10.0.0.5:636"), "unreachable"],
    [nodeError("ETIMEDOUT", "connect ETIMEDOUT 10.0.0.5:636"), "timeout"],
    [new Error("Connection timeout"), "timeout"],
    [new Error("SearchRequest: Operation timed out"), "timeout"],
    [
      nodeError("ECONNRESET", "Client network socket disconnected before secure TLS connection"),
      "connection-closed",
    ],
    [nodeError("SELF_SIGNED_CERT_IN_CHAIN", "self-signed certificate in chain"), "tls-untrusted"],
    [nodeError("UNABLE_TO_VERIFY_LEAF_SIGNATURE", "unable to verify"), "tls-untrusted"],
    [
      nodeError(
        "ERR_TLS_CERT_ALTNAME_INVALID",
        "Hostname/IP does not match certificate's altnames",
      ),
      "tls-name-mismatch",
    ],
    [nodeError("CERT_HAS_EXPIRED", "certificate has expired"), "tls-expired"],
    [new StrongAuthRequiredError("Strong(er) authentication required"), "encryption-required"],
    [new ConfidentialityRequiredError("Transport encryption required"), "encryption-required"],
    [new PlainLdapRefused("ldap://dc1:389"), "plain-ldap"],
    [new InvalidCredentialsError("80090308: LdapErr: DSID-0C09044E, data 52e"), "bind-refused"],
    [new NoSuchObjectError("0000208D: NameErr: DSID-03100241, problem 2001"), "base-not-found"],
    [new Error("something nobody expected"), "other"],
  ])("%s → %s", (error, code) => {
    const failure = classifyLdapFailure(error);
    expect(failure.code).toBe(code);
    expect(failure.detail).toBe(error.message);
  });

  it("keeps a code as the detail when the error has no message", () => {
    expect(classifyLdapFailure({ code: "ECONNREFUSED" })).toEqual({
      code: "connection-refused",
      detail: "ECONNREFUSED",
    });
  });
});

describe("DirectoryUnavailable", () => {
  it("names every server with its code and detail, for the server log", () => {
    const error = new DirectoryUnavailable([
      {
        url: "ldaps://dc1:636",
        failure: { code: "dns-not-found", detail: "getaddrinfo ENOTFOUND" },
      },
      { url: "ldaps://dc2:636", failure: { code: "timeout", detail: "Connection timeout" } },
    ]);
    expect(error.message).toBe(
      "no directory server could be used (ldaps://dc1:636: dns-not-found: getaddrinfo ENOTFOUND; " +
        "ldaps://dc2:636: timeout: Connection timeout)",
    );
  });
});
