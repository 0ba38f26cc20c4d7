import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { parseDocument } from "yaml";
import { z } from "zod";
import { checksValues, type Config, type Resolution, resolveConfig } from "../../src/config/mod.ts";

/** The directory the fake server starts in. */
export const CWD = "/srv/start";

/** Inputs for `resolve`; every field is optional. */
export interface FakeStartup {
  argv?: string[];
  env?: Record<string, string>;
  /** Config files by path; reading any other path fails like a missing file. */
  files?: Record<string, string>;
  pathListSeparator?: ":" | ";";
}

/** Runs `resolveConfig` against fake process state. */
export function resolve(startup: FakeStartup = {}): Resolution {
  const { argv = [], env = {}, files = {}, pathListSeparator = ":" } = startup;
  return resolveConfig({
    argv,
    env,
    cwd: CWD,
    pathListSeparator,
    version: "9.8.7",
    parseYaml: parseDocument,
    parseArgs,
    // As main.ts: zod only when checksValues says a value will be checked, so every test here
    // also proves that it says so whenever one is.
    zod: checksValues({ argv, env }) ? z : undefined,
    readFile: (path) => {
      if (Object.hasOwn(files, path)) return files[path];
      throw new Error(`No such file or directory (os error 2): readfile '${path}'`);
    },
  });
}

/** Resolves and returns the config, failing the test on any other outcome. */
export function configOf(startup: FakeStartup = {}): Config {
  const result = resolve(startup);
  assert.equal(result.kind, "config", JSON.stringify(result));
  return (result as Extract<Resolution, { kind: "config" }>).config;
}

/** Resolves and returns the warnings, failing the test on any other outcome. */
export function warningsOf(startup: FakeStartup = {}): string[] {
  const result = resolve(startup);
  assert.equal(result.kind, "config", JSON.stringify(result));
  return (result as Extract<Resolution, { kind: "config" }>).warnings;
}

/** Resolves and returns the error message, failing the test on any other outcome. */
export function errorOf(startup: FakeStartup = {}): string {
  const result = resolve(startup);
  assert.equal(result.kind, "error", JSON.stringify(result));
  return (result as Extract<Resolution, { kind: "error" }>).error;
}
