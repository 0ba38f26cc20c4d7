import type { Config } from "./config/mod.ts";
import type { RegexRunner } from "./core/condition_ports.ts";
import { errorText } from "./contract/error_text.ts";
import { ExecutionSearch } from "./core/execution_search.ts";
import { systemClock } from "./core/clock.ts";
import { ExecutionManager } from "./core/manager.ts";
import { RegexWorker } from "./core/regex_worker.ts";
import { Searcher } from "./core/search.ts";
import { Spool } from "./core/spool.ts";
import type { SpoolDisk } from "./core/spool_port.ts";
import { TabShellTasks } from "./core/tab_shell/tab_shell_tasks.ts";
import type { Logger } from "./logger.ts";
import { createServer } from "./mcp/server.ts";
import { currentSpoolDisk, isDirectory, type Platform, realPath } from "./platform/mod.ts";
import { createPortProbe } from "./platform/port_probe.ts";
import { admit } from "./policy/admission.ts";
import { authTokenSecrets, childEnvironment } from "./policy/auth_token.ts";
import { startNameChecker } from "./policy/command_names/mod.ts";
import { resolvePath } from "./policy/cwd.ts";
import { placeExecution, type PlacementRules } from "./policy/sandbox_admission.ts";
import { secretRedaction } from "./policy/secret_redaction.ts";
import { readsBash } from "./policy/shell_grammar.ts";
import type * as Http from "./transports/http.ts";
import type { SessionFactory } from "./transports/session.ts";
import { serveStdio } from "./transports/stdio.ts";

/**
 * The HTTP transport's entry module, imported through a constant: Deno reads the module graph
 * of every literal `import()` at startup, not of a computed one. scripts/compile_plan.ts
 * includes it in the binary.
 */
const HTTP_MODULE = "./transports/http.ts";

/**
 * How long after the transport starts the housekeeping that no request needs waits (the spool's
 * dead-server directories and its free-space probe, a `df` child): long enough that a client's
 * `initialize` and `tools/list` are answered first, short enough to be done before work piles up.
 */
const HOUSEKEEPING_DELAY_MS = 250;

/** tab-shell-mcp's default timeout of a foreground command. */
const TAB_SHELL_TIMEOUT_MS = 30_000;

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
  const spool = openSpool(options);
  // until's regex thread starts on first use (search has its own, so that a slow search never
  // queues before until's attempts); a live one keeps the process alive: shutdown closes it.
  const regex = new RegexWorker();
  const manager = createManager(options, defaultShell, spool, regex);
  const searcher = new Searcher();
  const search = new ExecutionSearch(manager, searcher, config.maxOutputBytes);
  const settings = {
    ...config,
    defaultShell,
    terminals: platform.terminals.unavailable() === null,
  };
  const tabShell = createTabShell(manager, options);
  const server = { version: options.version, settings, tabShell, search };
  const createSession: SessionFactory = (owner) => ({
    server: createServer(manager, { owner, ...server }),
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
      searcher.close();
      await spool?.close();
      regex.close();
      stopped.resolve();
    })();
  const serve = async (): Promise<number> => {
    const close = await startTransport(config, createSession, { logger, shutdown });
    if (close === null) return 1;
    closeTransport = close;
    if (stopping === null && spool !== null) {
      // Not setTimeout: Deno 2.9 loads its Node timers on the first one (5-9 ms), which a start
      // would pay before its first answers; this way the first call or the housekeeping does.
      AbortSignal.timeout(HOUSEKEEPING_DELAY_MS).addEventListener("abort", () => {
        if (stopping === null) housekeepSpool(spool, logger);
      }, { once: true });
    }
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
    serveStdio(createSession("stdio").server, app.logger).then(
      () => app.shutdown("stdin closed"),
      (error) => app.shutdown(`stdio failed: ${errorText(error)}`),
    );
    return () => Promise.resolve();
  }
  try {
    // Loaded on demand: a stdio server never pays for the HTTP stack at startup (a computed
    // specifier, so Deno does not even read its modules at startup; see HTTP_MODULE).
    const { serveHttp }: typeof Http = await import(HTTP_MODULE);
    const server = await serveHttp({ createSession }, config, app.logger);
    return () => server.close();
  } catch (error) {
    app.logger.error(errorText(error));
    return null;
  }
}

/** The policy (name lists, admission, redaction) and the execution manager behind it. */
function createManager(
  options: AppOptions,
  defaultShell: string,
  spool: Spool | null,
  regex: RegexRunner,
): ExecutionManager {
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
    terminals: platform.terminals,
    admit: (request) => placeExecution(admit(request, rules), request.sideEffects, placement),
    ready: names?.ready,
    redactionFor: secretRedaction(env, config.redactEnvRegex, authTokenSecrets(config.authToken)),
    baseEnv: { ...childEnvironment(env), ...config.nonInteractiveEnv },
    defaultShell,
    limits: config,
    maxProcessesPerSession: sessionShare(config),
    clock: systemClock,
    logger,
    spool,
    until: { regex, probe: createPortProbe(), clock: systemClock },
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

/**
 * The output spool for `spool: on` (null for `off`: memory-only retention, as the contract).
 * Its directory is made now; a directory that cannot be used is logged, and output then stays
 * in memory. Removing the directories of dead servers and measuring free space wait until the
 * server is serving ({@linkcode housekeepSpool}).
 */
function openSpool(options: AppOptions): Spool | null {
  const { config, env, logger } = options;
  if (config.spool === "off") return null;
  const { disk, defaultRoot } = currentSpoolDisk(env);
  const spool = Spool.open({
    disk: disk satisfies SpoolDisk,
    root: config.spoolDir ?? defaultRoot,
    pid: Deno.pid,
    maxStreamBytes: config.maxSpoolBytes,
    maxTotalBytes: config.maxSpoolTotalBytes,
    deferHousekeeping: true,
  });
  if (spool.problem !== null) logger.warn(spool.problem);
  return spool;
}

/** Removes the spool directories of dead servers (each logged) and measures free space. */
function housekeepSpool(spool: Spool, logger: Logger): void {
  for (const stale of spool.housekeep()) {
    logger.info(`removed the spool directory of a server that is gone: ${stale}`);
  }
}

/**
 * tab-shell-mcp's tools when the profile serves them: its defaults (a 30 s foreground kill, the
 * tail kept, `$SHELL`) where neither its setting nor ours was given.
 */
function createTabShell(manager: ExecutionManager, options: AppOptions) {
  const { config, platform, env, logger } = options;
  if (config.tools === "yieldshell") return undefined;
  const defaultShell = config.shell ?? (env.SHELL || platform.facts.defaultShell(env));
  const listed = config.blacklist.length > 0 || config.whitelist.length > 0;
  if (listed && !readsBash(defaultShell)) {
    throw new Error(
      `Shell '${defaultShell}' ($SHELL, the shell of execute_shell_command) does not read bash syntax, so a blacklist or whitelist cannot be enforced; set --shell to bash, sh or zsh, or remove the lists`,
    );
  }
  const tasks = new TabShellTasks(manager, {
    foregroundTimeoutMs: config.defaultTimeout === null
      ? TAB_SHELL_TIMEOUT_MS
      : config.defaultTimeoutMs,
    backgroundTimeoutMs: config.defaultTimeoutMs,
    maxOutputLength: config.maxOutputLength,
    truncation: config.outputTruncationMode ?? "tail",
    defaultShell,
    keepaliveMs: config.keepaliveIntervalMs,
    retentionMs: config.processRetentionMs,
    clock: systemClock,
    logger,
  });
  return { tasks, only: config.tools === "tab-shell" };
}
