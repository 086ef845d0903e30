// `llmgw ctl model add FILE|PRESET`: a definition file (YAML or JSON, one definition or a list)
// or, when the argument is not a file, the name of a preset shipped with llmgw.
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import { messageOf } from "@llmgw/domain";
import { parse as parseYaml } from "yaml";
import { CtlError } from "./client";

export type AddSource = { kind: "file"; path: string } | { kind: "preset"; name: string };

const FILE_EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

export function classifyAddArgument(
  argument: string,
  fileExists: (path: string) => boolean = isFile,
): AddSource {
  const extension = extname(argument).toLowerCase();
  if (FILE_EXTENSIONS.has(extension)) {
    if (!fileExists(argument))
      throw new CtlError(
        `no file "${argument}"; give a .yaml, .yml or .json definition file, or a preset name`,
      );
    return { kind: "file", path: argument };
  }
  if (fileExists(argument)) {
    throw new CtlError(
      `"${argument}" is a file but not .yaml, .yml or .json; rename it so its format is clear`,
    );
  }
  if (argument.includes("/") || argument.includes("\\")) {
    throw new CtlError(
      `no file "${argument}"; give a .yaml, .yml or .json definition file, or a preset name`,
    );
  }
  return { kind: "preset", name: argument };
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/**
 * The definitions a file holds: a single mapping, a list of them, or `{models: [...]}`. Their
 * content is judged by the server's schema; here only the shape of the file is checked.
 */
export function parseDefinitions(text: string, path: string): Record<string, unknown>[] {
  let document: unknown;
  try {
    document = extname(path).toLowerCase() === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const format = extname(path).toLowerCase() === ".json" ? "JSON" : "YAML";
    throw new CtlError(`${path} is not valid ${format}: ${messageOf(error).split("\n")[0]}`);
  }
  const models = isRecord(document) && Array.isArray(document.models) ? document.models : document;
  const list = Array.isArray(models) ? models : [models];
  if (list.length === 0) throw new CtlError(`${path} holds no model definition`);
  list.forEach((item, index) => {
    if (!isRecord(item)) {
      throw new CtlError(
        `${path}: item ${index + 1} is not a mapping of fields (name, source, profiles, …)`,
      );
    }
  });
  return list as Record<string, unknown>[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function readDefinitions(path: string): Record<string, unknown>[] {
  return parseDefinitions(readFileSync(path, "utf8"), path);
}
