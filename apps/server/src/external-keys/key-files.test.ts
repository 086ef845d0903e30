import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { keyFileRefusal, readKeyFile } from "./key-files";

describe("key files", () => {
  let home = "";
  let dir = "";
  const secret = "the-master-key-base64-do-not-send";
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "llmgw-keyfiles-"));
    dir = join(home, "keys");
    await mkdir(dir);
    await writeFile(join(home, "master.key"), secret, { mode: 0o600 });
    await writeFile(join(dir, "openai.key"), "  sk-abc \n");
    await writeFile(join(dir, "empty.key"), "\n");
    await symlink(join(home, "master.key"), join(dir, "linked.key"));
    await symlink(home, join(dir, "up"));
  });

  it("reads a key inside the directory without surrounding whitespace", async () => {
    expect(await readKeyFile(join(dir, "openai.key"), dir)).toEqual({ ok: true, key: "sk-abc" });
    expect(await readKeyFile(join(dir, "empty.key"), dir)).toMatchObject({ ok: false });
    expect(await readKeyFile(join(dir, "missing.key"), dir)).toMatchObject({ ok: false });
  });

  it("refuses every key file while no directory is configured, naming the setting", async () => {
    const why = await keyFileRefusal(join(dir, "openai.key"), null);
    expect(why).toMatch(/key files are off.*LLMGW_KEY_FILE_DIR/);
    expect(why).toMatch(/llmgw ctl model key set MODEL --key-file F/);
    expect(await readKeyFile(join(dir, "openai.key"), null)).toMatchObject({ ok: false });
  });

  // The attack: name a file the server holds, so it is sent upstream as the bearer token.
  it.each([
    ["the master key", () => join(home, "master.key")],
    ["a file that does not exist", () => join(home, "no-such-file")],
    ["/etc/shadow", () => "/etc/shadow"],
    ["a climb out with ..", () => join(dir, "..", "master.key")],
    ["a literal .. segment", () => `${dir}/../master.key`],
    ["the directory itself", () => dir],
    ["a sibling that shares the prefix", () => `${dir}-other/k`],
  ])("refuses %s at add time and at read time", async (_what, pathOf) => {
    const path = pathOf();
    const why = await keyFileRefusal(path, dir);
    expect(why).toMatch(/is not a file inside the key file directory .*\(LLMGW_KEY_FILE_DIR\)/);
    const read = await readKeyFile(path, dir);
    expect(read).toEqual({ ok: false, why });
  });

  it("answers the same refusal whether the file outside exists or not (no existence oracle)", async () => {
    const existing = await keyFileRefusal(join(home, "master.key"), dir);
    const missing = await keyFileRefusal(join(home, "nothing.key"), dir);
    expect(existing?.replace("master.key", "X")).toBe(missing?.replace("nothing.key", "X"));
  });

  it("refuses a symbolic link that leads out, the file's own or a folder's above it", async () => {
    for (const path of [join(dir, "linked.key"), join(dir, "up", "master.key")]) {
      expect(await keyFileRefusal(path, dir)).toMatch(/leads out .* through a symbolic link/);
      const read = await readKeyFile(path, dir);
      expect(read.ok).toBe(false);
      expect(JSON.stringify(read)).not.toContain(secret);
    }
  });

  it("accepts a file inside the directory that does not exist yet: it is read on use", async () => {
    expect(await keyFileRefusal(join(dir, "later.key"), dir)).toBeNull();
  });
});
