// Fails when src/gen is not what `buf generate` makes from proto/ today.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const out = mkdtempSync(join(tmpdir(), "llmgw-proto-"));
const template = JSON.stringify({
  version: "v2",
  plugins: [{ local: "protoc-gen-es", out, opt: ["target=ts", "import_extension=none"] }],
});
execFileSync("buf", ["generate", "--template", template], { stdio: "inherit" });

const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
const fresh = new Map(files(out).map((p) => [relative(out, p), readFileSync(p, "utf8")]));
const committed = new Map(
  files("src/gen").map((p) => [relative("src/gen", p), readFileSync(p, "utf8")]),
);
rmSync(out, { recursive: true, force: true });

const stale = [...new Set([...fresh.keys(), ...committed.keys()])].filter(
  (name) => fresh.get(name) !== committed.get(name),
);
if (stale.length > 0) {
  console.error(`generated code is stale: ${stale.join(", ")}; run \`npm run proto:gen\``);
  process.exit(1);
}
console.log("generated protobuf code is up to date");
