import type { Config } from "./config/mod.ts";
import { ExecutionManager } from "./core/manager.ts";
import type { Logger } from "./logger.ts";
import { createServer } from "./mcp/server.ts";
import type { Platform } from "./platform/types.ts";
import { type AdmissionRules, admit } from "./policy/admission.ts";
import { authTokenSecrets, childEnvironment } from "./policy/auth_token.ts";
import { mergeSecrets, type Secret } from "./policy/redaction.ts";

/** What the composition root needs from the process edge. */
export interface AppOptions {
  config: Config;
  platform: Platform;
  /** The server's environment, read once by main.ts. */
  env: Record<string, string>;
  logger: Logger;
  version: string;
  /** Command-name checker, present when a blacklist or whitelist is configured. */
  checkNames?: AdmissionRules["checkNames"];
  /** Settles when the policy is fully loaded; executions wait for it. */
  policyReady?: Promise<void>;
}

/** The assembled server: one execution manager and a factory of per-session MCP servers. */
export interface App {
  manager: ExecutionManager;
  createSessionServer(owner: string): ReturnType<typeof createServer>;
}

/** Builds the manager, policy and server factory from a resolved configuration. */
export function createApp(options: AppOptions): App {
  const { config, platform, env, version } = options;
  const rules: AdmissionRules = {
    blockedSideEffects: new Set(config.blockedSideEffects),
    deny: config.denyCommandRegex,
    allow: config.allowCommandRegex,
    checkNames: options.checkNames,
    defaultCwd: config.defaultCwd,
    allowedCwds: config.allowedCwds,
    pathSeparator: platform.pathSeparator,
    realPath,
    isDirectory,
  };
  const pattern = config.redactEnvRegex;
  const tokenSecrets = authTokenSecrets(config.authToken);
  const baseSecrets: Secret[] = pattern === null
    ? tokenSecrets
    : mergeSecrets(tokenSecrets, env, pattern);
  const manager = new ExecutionManager({
    platform,
    admit: (request) => admit(request, rules),
    ready: options.policyReady,
    secretsFor: (overlay) =>
      pattern === null || Object.keys(overlay).length === 0
        ? baseSecrets
        : mergeSecrets(baseSecrets, overlay, pattern),
    baseEnv: { ...childEnvironment(env), ...config.nonInteractiveEnv },
    defaultShell: config.shell ?? platform.defaultShell(env),
    limits: config,
  });
  return {
    manager,
    createSessionServer: (owner) => createServer(manager, { owner, version }),
  };
}

function realPath(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
