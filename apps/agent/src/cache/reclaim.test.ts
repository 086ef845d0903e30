// Reclaim must never touch a file outside the cache: a victim outside, symlinks into it from the
// cache, names with "..", entries without the agent's manifest, and a symlink swapped in between
// listing and deleting are all refused, and the victim is still there afterwards.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { must } from "@llmgw/domain";
import { describe, expect, it } from "vitest";
import { cacheName } from "./layout";
import { listUnwanted, reclaimCache, removeEntry } from "./reclaim";

function makeEntry(
  cacheDir: string,
  source: string,
  options: { fetchedByAgent?: boolean; name?: string } = {},
): string {
  const name = options.name ?? cacheName(source);
  const dir = path.join(cacheDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "w.gguf"), "x".repeat(100));
  const manifest = {
    source,
    file: "w.gguf",
    sizeBytes: 100,
    fetchedByAgent: options.fetchedByAgent ?? true,
    fetchedAtMs: 1,
  };
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));
  return dir;
}

function setup() {
  const root = mkdtempSync(path.join(tmpdir(), "llmgw-reclaim-"));
  const cacheDir = path.join(root, "data", "cache");
  mkdirSync(cacheDir, { recursive: true });
  const outside = path.join(root, "outside");
  mkdirSync(outside);
  const victim = path.join(outside, "victim.safetensors");
  writeFileSync(victim, "precious");
  return { root, cacheDir, outside, victim };
}

describe("reclaim", () => {
  it("lists only unwanted entries and without collect removes nothing", async () => {
    const { cacheDir } = setup();
    const wanted = makeEntry(cacheDir, "https://m/wanted.gguf");
    const unwanted = makeEntry(cacheDir, "https://m/old.gguf");
    const reply = await reclaimCache(
      cacheDir,
      { wantedSources: ["https://m/wanted.gguf"], collect: false },
      new Map(),
    );
    expect(reply.entries).toEqual([
      { cacheName: cacheName("https://m/old.gguf"), source: "https://m/old.gguf", sizeBytes: 100n },
    ]);
    expect(reply.bytesFreed).toBe(0n);
    expect(existsSync(unwanted) && existsSync(wanted)).toBe(true);
  });

  it("collects only what the agent fetched, refusing everything else with a reason, and never touches the victim", async () => {
    const { cacheDir, outside, victim } = setup();
    const old = makeEntry(cacheDir, "https://m/old.gguf");
    makeEntry(cacheDir, "https://m/copied-by-hand.gguf", { fetchedByAgent: false });
    makeEntry(cacheDir, "https://m/renamed.gguf", { name: "0123456789abcdef" });
    makeEntry(cacheDir, "https://m/dots.gguf", { name: "..dots" });
    makeEntry(cacheDir, "https://m/busy.gguf");
    // A symlink named like an entry, pointing at a directory outside that holds a valid manifest.
    makeEntry(outside, "https://m/linked.gguf");
    symlinkSync(
      path.join(outside, cacheName("https://m/linked.gguf")),
      path.join(cacheDir, cacheName("https://m/linked.gguf")),
    );
    // A real entry with a symlink inside it pointing at the victim.
    const withLink = makeEntry(cacheDir, "https://m/inner-link.gguf");
    symlinkSync(victim, path.join(withLink, "victim-link"));
    writeFileSync(path.join(cacheDir, "notes.txt"), "operator's");

    const busy = new Map([
      [cacheName("https://m/busy.gguf"), "in use by replica r-9 on this node"],
    ]);
    const reply = await reclaimCache(cacheDir, { wantedSources: [], collect: true }, busy);
    const entries = must(reply.entries, "the entries a collecting reclaim lists");
    const byName = new Map(entries.map((entry) => [entry.cacheName, entry]));
    expect(byName.get(cacheName("https://m/old.gguf"))).toMatchObject({ removed: true });
    expect(existsSync(old)).toBe(false);
    expect(reply.bytesFreed).toBeGreaterThanOrEqual(100n);
    const refusals = Object.fromEntries(
      entries.filter((entry) => entry.refused).map((entry) => [entry.cacheName, entry.refused]),
    );
    expect(refusals).toEqual({
      [cacheName("https://m/copied-by-hand.gguf")]: "no manifest of the agent's: not fetched by it",
      "0123456789abcdef": "its manifest's source does not hash to this name",
      "..dots": "not a cache name: put there by someone else",
      [cacheName("https://m/busy.gguf")]: "in use by replica r-9 on this node",
      [cacheName("https://m/linked.gguf")]:
        "a symbolic link: the agent never makes one, so it did not fetch this",
      [cacheName("https://m/inner-link.gguf")]:
        "holds a symbolic link (victim-link): refused, it could point anywhere",
      "notes.txt": "not a directory the agent made",
    });
    // The refused entry with a link inside is put back whole.
    expect(existsSync(path.join(withLink, "w.gguf"))).toBe(true);
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(existsSync(path.join(outside, cacheName("https://m/linked.gguf"), "w.gguf"))).toBe(true);
  });

  it("refuses names with '..', absolute paths and separators", async () => {
    const { cacheDir, victim } = setup();
    for (const name of [
      "..",
      "../outside",
      "../../outside/victim.safetensors",
      victim,
      "a/b",
      "..\\x",
      "",
    ]) {
      const outcome = await removeEntry(cacheDir, name);
      expect(outcome).toHaveProperty("refused");
    }
    expect(readFileSync(victim, "utf8")).toBe("precious");
  });

  it("refuses an entry swapped for a symlink between listing and deleting", async () => {
    const { cacheDir, outside, victim } = setup();
    const source = "https://m/swapped.gguf";
    const entry = makeEntry(cacheDir, source);
    const listed = await listUnwanted(cacheDir, [], new Map());
    expect(listed.map((item) => [item.cacheName, item.refused])).toEqual([
      [cacheName(source), undefined],
    ]);

    // Someone moves the entry away and puts a symlink to a look-alike outside in its place.
    renameSync(entry, path.join(outside, "moved"));
    const lookAlike = makeEntry(outside, source, { name: "look-alike" });
    writeFileSync(path.join(lookAlike, "victim-copy"), "precious too");
    symlinkSync(lookAlike, entry);

    const outcome = await removeEntry(cacheDir, cacheName(source));
    expect(outcome).toEqual({ refused: "a symbolic link: refused, it could point anywhere" });
    expect(readFileSync(path.join(lookAlike, "victim-copy"), "utf8")).toBe("precious too");
    expect(existsSync(path.join(lookAlike, "w.gguf"))).toBe(true);
    expect(readFileSync(victim, "utf8")).toBe("precious");
  });

  it("accepts a symlinked cache root, checking only what lies below it", async () => {
    const { root, cacheDir, victim } = setup();
    const source = "https://m/x.gguf";
    makeEntry(cacheDir, source);
    // A symlinked cache root is allowed (operators move caches to big disks), but only real
    // directories below it count.
    const linkedCache = path.join(root, "cache-link");
    symlinkSync(cacheDir, linkedCache);
    await expect(removeEntry(linkedCache, cacheName(source))).resolves.toEqual({
      bytesFreed: expect.any(Number),
    });
    expect(readFileSync(victim, "utf8")).toBe("precious");
  });
});
