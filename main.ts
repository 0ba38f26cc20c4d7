import denoJson from "./deno.json" with { type: "json" };
import { type App, createApp } from "./src/app.ts";
import { checksValues, resolveConfig } from "./src/config/mod.ts";
import { errorText } from "./src/contract/error_text.ts";
import { createStderrLogger, type Logger } from "./src/logger.ts";
import { currentFacts, currentPlatform, currentSandbox, realPath } from "./src/platform/mod.ts";

/** The process edge: argv/env to config to app; signals; the exit code. */
async function main(): Promise<number> {
  const facts = currentFacts();
  const env = Deno.env.toObject();
  const logger = createStderrLogger();
  const mark = startupTrace(env, logger);
  mark("main");
  const argv = Deno.args;
  const resolved = resolveConfig({
    argv,
    env,
    cwd: Deno.cwd(),
    pathListSeparator: facts.pathListSeparator,
    pathSeparator: facts.pathSeparator,
    realPath,
    readFile: (path: string) => Deno.readTextFileSync(path),
    version: denoJson.version,
    parseYaml: await yamlParserIfNamed(env),
    // Node's util costs milliseconds to load; without arguments there is nothing to parse.
    parseArgs: argv.length === 0 ? undefined : (await import("node:util")).parseArgs,
    // zod costs milliseconds more: loaded only when a flag, variable or file gives a value.
    zod: checksValues({ argv, env }) ? (await import("zod")).z : undefined,
  });
  // The snapshot above is all the server ever reads of its environment (children get theirs
  // from it): from here on nothing in the process, a dependency included, can read a variable.
  // Not earlier: the YAML parser reads process.env while it parses.
  Deno.permissions.revokeSync({ name: "env" });
  mark("config");
  switch (resolved.kind) {
    case "error":
      logger.error(resolved.error);
      return 2;
    case "help":
    case "version":
      await Deno.stdout.write(new TextEncoder().encode(`${resolved.text}\n`));
      return 0;
  }
  for (const warning of resolved.warnings) logger.warn(warning);
  const { config } = resolved;
  const opening = await currentSandbox(config.sandbox);
  if (!opening.ok) {
    logger.error(opening.error);
    return 2;
  }
  const platform = currentPlatform(opening.sandbox);
  mark("platform");
  let app: App;
  try {
    app = createApp({ config, platform, env, logger, version: denoJson.version });
  } catch (error) {
    logger.error(errorText(error));
    return 2;
  }
  mark("app");
  for (const signal of platform.facts.shutdownSignals) {
    Deno.addSignalListener(signal, () => void app.shutdown(signal));
  }
  // serve() starts the transport before its first await: the server reads requests from here.
  const served = app.serve();
  mark("serving");
  return await served;
}

/**
 * With `YIELDSHELL_STARTUP_TRACE=1`, logs each startup mark as ms since the process began and
 * as wall-clock epoch ms (scripts/bench/startup_timeline.ts relates them to its spawn); a
 * no-op otherwise.
 */
function startupTrace(env: Record<string, string>, logger: Logger): (mark: string) => void {
  if (env.YIELDSHELL_STARTUP_TRACE !== "1") return () => {};
  return (mark) => {
    const ms = performance.now();
    logger.info(
      `startup trace: ${mark} ${ms.toFixed(1)} ms at ${(performance.timeOrigin + ms).toFixed(1)}`,
    );
  };
}

/** The YAML parser costs tens of milliseconds to load: only load it when a file is named. */
async function yamlParserIfNamed(env: Record<string, string>) {
  const named = Deno.args.some((arg) => arg === "--config" || arg.startsWith("--config=")) ||
    Boolean(env.YIELDSHELL_CONFIG);
  return named ? (await import("yaml")).parseDocument : undefined;
}

Deno.exit(await main());
