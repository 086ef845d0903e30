import { describe, expect, it } from "vitest";
import { eventHref, eventMessageParams } from "./events";

const words = {
  cpuOnly: "CPU",
  cardList: (cards: string, count: number) => `${count === 1 ? "card" : "cards"} ${cards}`,
  noFallbacks: "none",
};

describe("event message params", () => {
  it("formats numbers per language and turns milliseconds into seconds", () => {
    const lost = { kind: "node.lost" as const, params: { node: "gpu-1", lostAfterMs: 12_500 } };
    expect(eventMessageParams(lost, "en", words)).toMatchObject({ node: "gpu-1", seconds: "13" });
    const parked = { kind: "model.parked" as const, params: { failures: 1234, error: "boom" } };
    expect(eventMessageParams(parked, "en", words).failures).toBe("1,234");
    expect(eventMessageParams(parked, "tr", words).failures).toBe("1.234");
  });

  it("shows a certificate's expiry as a date and time in the page's language, not as ISO", () => {
    const expiring = {
      kind: "certificate.expiring" as const,
      params: { node: "gpu-1", expiresAt: "2026-12-10T08:00:00.000Z", daysLeft: 6 },
    };
    const shown = eventMessageParams(expiring, "en", words);
    expect(shown.expiresAt).not.toContain("T08:00");
    expect(shown.expiresAt).toContain("2026");
    expect(shown.daysLeft).toBe("6");
  });

  it("says CPU for an empty card list and none for cleared fallbacks", () => {
    const placed = { kind: "replica.placed" as const, params: { cards: "" } };
    expect(eventMessageParams(placed, "en", words).cards).toBe("CPU");
    expect(eventMessageParams({ ...placed, params: { cards: "3" } }, "en", words).cards).toBe(
      "card 3",
    );
    expect(eventMessageParams({ ...placed, params: { cards: "0,1" } }, "en", words).cards).toBe(
      "cards 0, 1",
    );
    const fallbacks = { kind: "catalog.fallbacks-changed" as const, params: { fallbacks: "" } };
    expect(eventMessageParams(fallbacks, "en", words).fallbacks).toBe("none");
  });

  it("links each subject to its page", () => {
    expect(eventHref({ subjectType: "node", subjectId: "n 1", params: {} })).toBe("/nodes/n%201");
    expect(eventHref({ subjectType: "replica", subjectId: "r1", params: { model: "chat" } })).toBe(
      "/replicas?model=chat",
    );
    expect(eventHref({ subjectType: "model", subjectId: "chat", params: {} })).toBe(
      "/replicas?model=chat",
    );
    expect(eventHref({ subjectType: "key", subjectId: "k", params: {} })).toBe("/keys");
  });
});
