import denoJson from "./deno.json" with { type: "json" };
import { createApp } from "./src/app.ts";
import { resolveConfig } from "./src/config/mod.ts";
import { createStderrLogger } from "./src/logger.ts";
import { currentPlatform } from "./src/platform/mod.ts";
import { startNameChecker } from "./src/policy/command_names/mod.ts";
import { serveStdio } from "./src/transports/stdio.ts";

/** The process edge: argv/env to config to app; signals; exit codes. */
async function main(): Promise<number> {
  const platform = currentPlatform();
  const env = Deno.env.toObject();
  // The YAML parser costs tens of milliseconds to load: only load it when a file is named.
  const namesFile = Deno.args.some((arg) => arg === "--config" || arg.startsWith("--config=")) ||
    Boolean(env.YIELDSHELL_CONFIG);
  const parseYaml = namesFile ? (await import("yaml")).parseDocument : undefined;
  const resolved = resolveConfig({
    parseYaml,
    argv: Deno.args,
    env,
    cwd: Deno.cwd(),
    pathListSeparator: platform.pathListSeparator,
    readFile: (path: string) => Deno.readTextFileSync(path),
    version: denoJson.version,
  });
  const logger = createStderrLogger();
  switch (resolved.kind) {
    case "error":
      logger.error(resolved.error);
      return 2;
    case "help":
    case "version":
      await Deno.stdout.write(new TextEncoder().encode(`${resolved.text}\n`));
      return 0;
  }
  const { config } = resolved;
  for (const warning of resolved.warnings) logger.warn(warning);
  let names;
  try {
    names = startNameChecker(config, config.shell ?? platform.defaultShell(env));
  } catch (error) {
    logger.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  names?.ready.catch((error) => {
    logger.error(
      `Cannot load the command-name policy: ${error instanceof Error ? error.message : error}`,
    );
    Deno.exit(2);
  });
  const app = createApp({
    config,
    platform,
    env,
    logger,
    version: denoJson.version,
    checkNames: names?.check,
    policyReady: names?.ready,
  });

  // The transport stops accepting first, then every execution is stopped (TERM, then KILL).
  let closeTransport = () => Promise.resolve();
  let stopping: Promise<never> | null = null;
  const stop = (reason: string): Promise<never> => {
    stopping ??= (async () => {
      logger.info(`shutting down (${reason}); stopping ${app.manager.liveCount} live execution(s)`);
      await closeTransport();
      await app.manager.shutdown();
      Deno.exit(0);
    })();
    return stopping;
  };
  for (const signal of platform.shutdownSignals) {
    Deno.addSignalListener(signal, () => void stop(signal));
  }
  if (config.transport === "http") {
    try {
      // Loaded on demand: a stdio server never pays for the HTTP stack at startup.
      const { serveHttp } = await import("./src/transports/http.ts");
      const server = await serveHttp(app, config, logger);
      closeTransport = () => server.close();
    } catch (error) {
      logger.error(error instanceof Error ? error.message : String(error));
      return 1;
    }
    // Runs until a shutdown signal; stop() exits the process.
    return await new Promise<never>(() => {});
  }
  await serveStdio(app.createSessionServer("stdio"));
  return await stop("stdin closed");
}

Deno.exit(await main());
