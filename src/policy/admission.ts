import type { Admission, AdmissionRequest } from "../contract/admission.ts";
import { checkCommandRegex, checkShellRegex } from "./command_regex.ts";
import { checkCwd, describeMissingCwd } from "./cwd.ts";
import type { Decision } from "./decision.ts";
import { checkSideEffects } from "./side_effects.ts";

/** Everything admission needs; file-system facts are injected so this stays pure. */
export interface AdmissionRules {
  blockedSideEffects: ReadonlySet<string>;
  deny: RegExp | null;
  allow: RegExp | null;
  /** Command-name lists (tree-sitter) with their variable policy; absent without a list. */
  checkNames?: (request: AdmissionRequest) => Decision;
  defaultCwd: string;
  allowedCwds: readonly string[];
  pathSeparator: "/" | "\\";
  realPath: (path: string) => string | null;
  isDirectory: (path: string) => boolean;
}

/**
 * Runs every check in the documented order: side effects, regexes (command,
 * then shell), command names, cwd. The first refusal wins.
 */
export function admit(request: AdmissionRequest, rules: AdmissionRules): Admission {
  const steps: (() => Decision)[] = [
    () => checkSideEffects(request.sideEffects, rules.blockedSideEffects),
    () => checkCommandRegex(request.command, { deny: rules.deny, allow: rules.allow }),
    () =>
      request.shell === null
        ? { allow: true }
        : checkShellRegex(request.shell, { deny: rules.deny, allow: rules.allow }),
    () => rules.checkNames?.(request) ?? { allow: true },
  ];
  for (const step of steps) {
    const decision = step();
    if (!decision.allow) return decision;
  }
  const target = request.cwd === null || request.cwd === "" ? rules.defaultCwd : request.cwd;
  const options = {
    base: rules.defaultCwd,
    realPath: rules.realPath,
    separator: rules.pathSeparator,
  };
  const cwd = checkCwd(target, rules.allowedCwds, options);
  if (!cwd.allow) return cwd;
  if (!rules.isDirectory(cwd.resolved)) {
    return { allow: false, reason: describeMissingCwd(cwd.resolved) };
  }
  return { allow: true, cwd: cwd.resolved };
}
