// Copies the packages a release cannot bundle, with their production dependencies (never their
// devDependencies), into the release's lib/node_modules, flat, as npm would install them.
import { cpSync, existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "./ensure.mjs";

/** The real folder of package `name` as Node would resolve it from `fromDir` (pnpm links resolved). */
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`cannot find package ${name} from ${fromDir}`);
  }
}

/**
 * `externals`: `{ name, from }`, `from` being the workspace package (relative to the root) that
 * depends on it. Answers the names copied.
 */
export function copyExternals(externals, nodeModulesDir) {
  const copied = new Map();
  const queue = externals.map(({ name, from }) => ({ name, fromDir: join(ROOT, from) }));
  while (queue.length > 0) {
    const { name, fromDir } = queue.shift();
    const dir = packageDir(name, fromDir);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const known = copied.get(name);
    if (known !== undefined) {
      if (known !== manifest.version) {
        throw new Error(
          `${name} is needed at ${known} and at ${manifest.version}; one folder holds one`,
        );
      }
      continue;
    }
    copied.set(name, manifest.version);
    cpSync(dir, join(nodeModulesDir, name), { recursive: true, dereference: true });
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      queue.push({ name: dependency, fromDir: dir });
    }
  }
  return [...copied.keys()];
}
