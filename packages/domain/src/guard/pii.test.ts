import { describe, expect, it } from "vitest";
import { findPii, ibanChecksumOk, luhnOk, redactPii, tcKimlikOk } from "./pii";

const kinds = (text: string) => findPii(text).map((m) => m.kind);

describe("personal data detectors", () => {
  it("finds an e-mail address, and not a handle or a host without a domain", () => {
    expect(redactPii("write to ada.lovelace+ops@example.com.tr today").text).toBe(
      "write to [redacted:email] today",
    );
    expect(kinds("ping @ada or root@localhost")).toEqual([]);
  });

  it("finds phone numbers written the usual ways", () => {
    expect(kinds("call +90 532 123 45 67")).toEqual(["phone"]);
    expect(kinds("call 0532 123 45 67 now")).toEqual(["phone"]);
    expect(kinds("call +1 (415) 555-2671")).toEqual(["phone"]);
  });

  it("leaves dates, versions, times and short numbers alone", () => {
    expect(kinds("released 2026-12-02 as v1.2.3.4 at 12:30, order 12345, port 8080")).toEqual([]);
    expect(kinds("took 0.532 s for 1234 tokens")).toEqual([]);
  });

  it("finds an IBAN only when its mod-97 check holds", () => {
    expect(ibanChecksumOk("GB82WEST12345698765432")).toBe(true);
    expect(kinds("pay TR33 0006 1005 1978 6457 8413 26 please")).toEqual(["iban"]);
    expect(kinds("pay GB82WEST12345698765432")).toEqual(["iban"]);
    expect(ibanChecksumOk("GB83WEST12345698765432")).toBe(false);
    expect(kinds("ref GB83 WEST 1234 5698 7654 32")).toEqual([]);
  });

  it("finds a TC kimlik number only when both check digits hold", () => {
    expect(tcKimlikOk("10000000146")).toBe(true);
    expect(redactPii("TC: 10000000146.").text).toBe("TC: [redacted:tc_kimlik].");
    expect(tcKimlikOk("10000000147")).toBe(false); // last digit wrong
    expect(tcKimlikOk("10000000156")).toBe(false); // tenth digit wrong
    expect(tcKimlikOk("00000000146")).toBe(false); // never starts with 0
    expect(kinds("id 10000000147 and 100000001460")).toEqual([]);
  });

  it("finds a card number only when Luhn holds", () => {
    expect(luhnOk("4111111111111111")).toBe(true);
    expect(kinds("card 4111 1111 1111 1111")).toEqual(["card"]);
    expect(kinds("card 4111-1111-1111-1111")).toEqual(["card"]);
    expect(kinds("ticket 4111 1111 1111 1112")).toEqual([]);
  });

  it("redacts several kinds at once and says which it found", () => {
    const out = redactPii("ada@example.com, +90 532 123 45 67, TC 10000000146");
    expect(out.text).toBe("[redacted:email], [redacted:phone], TC [redacted:tc_kimlik]");
    expect(out.kinds.sort()).toEqual(["email", "phone", "tc_kimlik"]);
  });

  it("leaves text without personal data exactly as it was", () => {
    const text = "The cluster serves qwen-7b on 3 nodes; p95 latency 420 ms.";
    expect(redactPii(text)).toEqual({ text, kinds: [] });
  });
});
