// What AD's bind sub-codes tell the person, read from the diagnostic message of a refused bind.
import { describe, expect, it } from "vitest";
import { AD_BIND_SUB_CODES, adBindRefusal, adBindSubCode } from "./ad-bind-codes";

// Diagnostic messages as ldapts reports them (the server's text, then " Code: 0x31"). Samba 4.17's
// are copied from binds against the DC in ldap-samba.int.test.ts; Windows Server's have the same
// shape with another DSID and version suffix.
const samba = (code: string) =>
  `80090308: LdapErr: DSID-0C0903A9, comment: AcceptSecurityContext error, data ${code}, v1db1 Code: 0x31`;
const windows = (code: string) =>
  `80090308: LdapErr: DSID-0C09044E, comment: AcceptSecurityContext error, data ${code}, v4563 Code: 0x31`;

describe("AD bind sub-codes", () => {
  it("names the reason for every code AD sends about an account whose password was right", () => {
    expect(adBindRefusal(samba("533"))).toBe(
      "Active Directory refused the sign-in: the account is disabled (AD code 533); " +
        "ask your directory admin to enable it",
    );
    expect(adBindRefusal(windows("532"))).toMatch(/the password has expired \(AD code 532\)/);
    expect(adBindRefusal(samba("773"))).toMatch(/password must be changed .* \(AD code 773\)/);
    expect(adBindRefusal(windows("775"))).toMatch(/the account is locked .* \(AD code 775\)/);
    expect(adBindRefusal(samba("701"))).toMatch(/the account has expired \(AD code 701\)/);
    expect(adBindRefusal(windows("530"))).toMatch(/time of day \(logon hours\) \(AD code 530\)/);
    expect(adBindRefusal(windows("531"))).toMatch(/workstation restriction\) \(AD code 531\)/);
    expect(Object.keys(AD_BIND_SUB_CODES).sort()).toEqual([
      "530",
      "531",
      "532",
      "533",
      "701",
      "773",
      "775",
    ]);
  });

  it("leaves a wrong password, an unknown user and anything else to the wrong-credentials answer", () => {
    expect(adBindSubCode(samba("52e"))).toBeNull();
    expect(adBindSubCode(windows("52E"))).toBeNull();
    expect(adBindSubCode(windows("525"))).toBeNull();
    expect(adBindSubCode(windows("568"))).toBeNull();
    // OpenLDAP says nothing more than the result code.
    expect(adBindSubCode("Invalid credentials Code: 0x31")).toBeNull();
    expect(adBindSubCode("")).toBeNull();
    // Only the `data` field counts: a DSID or version that happens to contain 533 does not.
    expect(
      adBindSubCode("80090308: LdapErr: DSID-0C090533, comment: x, data 52e, v533"),
    ).toBeNull();
  });

  it("reads the code in either case and with or without the trailing fields", () => {
    expect(adBindSubCode("AcceptSecurityContext error, DATA 533")).toBe("533");
    expect(adBindSubCode("comment: AcceptSecurityContext error, data 775, v2580")).toBe("775");
  });
});
