import type { Config } from "./config/mod.ts";
import { errorText } from "./contract/error_text.ts";
import { ExecutionManager } from "./core/manager.ts";
import type { Logger } from "./logger.ts";
import { createServer } from "./mcp/server.ts";
import { isDirectory, type Platform, realPath } from "./platform/mod.ts";
import { admit } from "./policy/admission.ts";
import { resolvePath } from "./policy/cwd.ts";
import { placeExecution, type PlacementRules } from "./policy/sandbox_admission.ts";
import { startNameChecker } from "./policy/name_checker.ts";
import { secretRedaction } from "./policy/secret_redaction.ts";
import type { SessionFactory } from "./transports/session.ts";
import { serveStdio } from "./transports/stdio.ts";

/** What the composition root needs from the process edge. */
export interface AppOptions {
  config: Config;
  platform: Platform;
  /** The server's environment, read once by main.ts. */
  env: Record<string, string>;
  logger: Logger;
  version: string;
}

/** The assembled server. */
export interface App {
  /** Serves until the client goes away or `shutdown` is called; resolves with the exit code. */
  serve(): Promise<number>;
  /** Stops accepting, then stops every execution (TERM, then KILL); idempotent. */
  shutdown(reason: string): Promise<void>;
}

/**
 * Builds policy, manager and transport from a resolved configuration. Throws with the whole
 * message when the configuration cannot be served (a name list under a shell that is not bash).
 */
export function createApp(options: AppOptions): App {
  const { config, logger, platform, env } = options;
  const defaultShell = config.shell ?? platform.facts.defaultShell(env);
  const manager = createManager(options, defaultShell);
  const settings = { ...config, defaultShell };
  const createSession: SessionFactory = (owner) => ({
    server: createServer(manager, { owner, version: options.version, settings }),
    hasLiveWork: () => manager.hasLiveWork(owner),
    close: () => manager.closeSession(owner),
  });
  const stopped = Promise.withResolvers<void>();
  let closeTransport = () => Promise.resolve();
  let stopping: Promise<void> | null = null;
  const shutdown = (reason: string) =>
    stopping ??= (async () => {
      logger.info(`shutting down (${reason}); stopping ${manager.liveCount} live execution(s)`);
      await closeTransport();
      await manager.shutdown();
      stopped.resolve();
    })();
  const serve = async (): Promise<number> => {
    const close = await startTransport(config, createSession, { logger, shutdown });
    if (close === null) return 1;
    closeTransport = close;
    await stopped.promise;
    return 0;
  };
  return { serve, shutdown };
}

/**
 * Starts the configured transport; resolves with the function that closes it, or null when it
 * cannot start (the reason is logged). stdio ends the server when the client goes away.
 */
async function startTransport(
  config: Config,
  createSession: SessionFactory,
  app: { logger: Logger; shutdown(reason: string): Promise<void> },
): Promise<(() => Promise<void>) | null> {
  if (config.transport === "stdio") {
    serveStdio(createSession("stdio").server).then(
      () => app.shutdown("stdin closed"),
      (error) => app.shutdown(`stdio failed: ${errorText(error)}`),
    );
    return () => Promise.resolve();
  }
  try {
    // Loaded on demand: a stdio server never pays for the HTTP stack at startup.
    const { serveHttp } = await import("./transports/http.ts");
    const server = await serveHttp({ createSession }, config, app.logger);
    return () => server.close();
  } catch (error) {
    app.logger.error(errorText(error));
    return null;
  }
}

/** The policy (name lists, admission, redaction) and the execution manager behind it. */
function createManager(options: AppOptions, defaultShell: string): ExecutionManager {
  const { config, platform, env, logger } = options;
  const names = startNameChecker(config, defaultShell);
  // A policy that cannot load fails closed: every execute reports why (see the manager).
  names?.ready.catch((error) =>
    logger.error(
      `Cannot load the command-name policy: ${
        errorText(error)
      }; every execute fails to start until the server is restarted`,
    )
  );
  const rules = {
    blockedSideEffects: new Set(config.blockedSideEffects),
    deny: config.denyCommandRegex,
    allow: config.allowCommandRegex,
    checkNames: names?.check,
    defaultCwd: config.defaultCwd,
    allowedCwds: config.allowedCwds,
    pathSeparator: platform.facts.pathSeparator,
    realPath,
    isDirectory,
  };
  const placement = placementRules(config, platform);
  return new ExecutionManager({
    processes: platform.processes,
    admit: (request) => placeExecution(admit(request, rules), request.sideEffects, placement),
    ready: names?.ready,
    redactionFor: secretRedaction(env, config.redactEnvRegex),
    baseEnv: { ...env, ...config.nonInteractiveEnv },
    defaultShell,
    limits: config,
    maxProcessesPerSession: sessionShare(config),
    clock: { nowMs: () => Date.now(), monotonicMs: () => performance.now() },
    logger,
  });
}

/** The sandbox settings and the allowed roots, resolved once (the sandbox binds real paths). */
function placementRules(config: Config, platform: Platform): PlacementRules {
  const options = {
    base: config.defaultCwd,
    realPath,
    separator: platform.facts.pathSeparator,
  };
  return {
    mode: config.sandbox,
    allowUnconfined: new Set(config.allowUnconfined),
    allowedRoots: config.allowedCwds.filter((root) => root !== "").map((root) =>
      resolvePath(root, options)
    ),
  };
}

/**
 * Most live executions one session may hold: the setting, or a fair share. Over HTTP that is half
 * of max_processes, so one session can never take all (and two can always run); stdio has one
 * session, which may use everything.
 */
function sessionShare(config: Config): number {
  if (config.maxProcessesPerSession !== null) return config.maxProcessesPerSession;
  if (config.transport === "stdio") return config.maxProcesses;
  return Math.max(1, Math.floor(config.maxProcesses / 2));
}
