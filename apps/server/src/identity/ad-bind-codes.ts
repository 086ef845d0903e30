// Active Directory explains a refused bind in the diagnostic message (`…, data 533, …`): 52e is a
// wrong password, answered like an unknown name; the others (disabled, expired, locked, must
// change password, time or workstation restriction) are named to the person, see adBindRefusal.
import { InvalidCredentialsError } from "ldapts";
import { describeLdapError } from "./ldap-failure";

/**
 * AD's sub-codes (`data XXX` in a refused bind's diagnostic message) about an account whose
 * password was right: what is wrong with the account, and what the person can do. Left out, so
 * answered as wrong credentials: 52e (wrong password) and 525 (no such user). 775 (locked) is the
 * one AD sends whatever the password, so naming it says that a locked account has this name;
 * that is what the person needs to know, and the lockout already showed it to whoever caused it.
 */
export const AD_BIND_SUB_CODES: Readonly<Record<string, { reason: string; advice: string }>> = {
  "530": {
    reason: "the account may not sign in at this time of day (logon hours)",
    advice: "try again within your allowed hours or ask your directory admin",
  },
  "531": {
    reason: "the account may not sign in from this server (workstation restriction)",
    advice: "ask your directory admin to allow it",
  },
  "532": {
    reason: "the password has expired",
    advice: "change it (for example at a Windows sign-in) and try again",
  },
  "533": { reason: "the account is disabled", advice: "ask your directory admin to enable it" },
  "701": { reason: "the account has expired", advice: "ask your directory admin to extend it" },
  "773": {
    reason: "the password must be changed before the first sign-in",
    advice: "set a new one (for example at a Windows sign-in) and try again",
  },
  "775": {
    reason: "the account is locked after too many wrong passwords",
    advice: "wait for it to unlock or ask your directory admin",
  },
};

/** The AD sub-code a diagnostic message names when it is one of AD_BIND_SUB_CODES, else null. */
export function adBindSubCode(diagnostic: string): string | null {
  return subCodeIn(diagnostic)?.code ?? null;
}

function subCodeIn(diagnostic: string): { code: string; reason: string; advice: string } | null {
  const code = /\bdata ([0-9a-f]{3,4})\b/i.exec(diagnostic)?.[1]?.toLowerCase();
  const meaning = code === undefined ? undefined : AD_BIND_SUB_CODES[code];
  return code && meaning ? { code, ...meaning } : null;
}

/** The refusal shown to a person whose bind AD refused with a sub-code about the account. */
export function adBindRefusal(diagnostic: string): string | null {
  const subCode = subCodeIn(diagnostic);
  if (!subCode) return null;
  const { code, reason, advice } = subCode;
  return `Active Directory refused the sign-in: ${reason} (AD code ${code}); ${advice}`;
}

/** Why the service account was refused, with AD's reason when it sent one. */
export function serviceRefusal(error: unknown): string {
  if (!(error instanceof InvalidCredentialsError)) return describeLdapError(error);
  const subCode = subCodeIn(error.message);
  return (
    "the service account (bind DN and password) was refused" +
    (subCode ? `: ${subCode.reason} (AD code ${subCode.code})` : "")
  );
}
