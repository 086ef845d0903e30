// The whole-fleet lists travel alone (their size must not hold back a page's small answers), and
// so does auth.me (the shell waits on it); the rest stay batched.
import { describe, expect, it } from "vitest";
import { consoleLinks, travelsAlone } from "./trpc-links";

describe("travelsAlone", () => {
  it("sends the fleet-sized lists alone and batches everything else", () => {
    expect(travelsAlone("nodes.cards")).toBe(true);
    expect(travelsAlone("nodes.summary")).toBe(true);
    expect(travelsAlone("replicas.list")).toBe(true);
    expect(travelsAlone("replicas.cards")).toBe(true);
    expect(travelsAlone("nodes.get")).toBe(false);
    expect(travelsAlone("events.attention")).toBe(false);
    expect(travelsAlone("status.get")).toBe(false);
    expect(consoleLinks()).toHaveLength(1);
  });

  it("sends auth.me alone: the shell renders on its answer, not on the page's slowest call", () => {
    expect(travelsAlone("auth.me")).toBe(true);
    expect(travelsAlone("auth.logout")).toBe(false);
  });
});
