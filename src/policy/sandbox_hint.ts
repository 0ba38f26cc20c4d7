import type { SandboxOutcome } from "../contract/admission.ts";
import { profileLabel, type SandboxMode, type SandboxProfile } from "./sandbox_profile.ts";

/** Only the newest bytes are scanned: errors come last, and the scan stays cheap. */
const SCAN_CHARS = 64 * 1024;

const READ_ONLY = /Read-only file system|\bEROFS\b/i;
const DENIED = /Permission denied|Operation not permitted|\bEACCES\b|\bEPERM\b/i;
/** Words on a "denied" line that show it was a write (reads are open in every profile). */
const WRITING =
  /\b(?:creat|create|touch|remove|delete|write|writing|mkdir|rmdir|unlink|rename|move|overwrite|symlink|link|lock|copyfile|chmod|chown|utime|truncate)\b/i;
const OFFLINE = new RegExp(
  [
    "Could not resolve host",
    "Temporary failure in name resolution",
    "Name or service not known",
    "No address associated with hostname",
    "nodename nor servname provided",
    "getaddrinfo",
    "\\bENOTFOUND\\b",
    "\\bEAI_AGAIN\\b",
    "Network is unreachable",
    "\\bENETUNREACH\\b",
    "Connection refused",
    "\\bECONNREFUSED\\b",
    "No route to host",
    "Could not connect to",
    "Failed to connect to",
    "Failed to establish a new connection",
    "unable to (?:access|connect|resolve)",
  ].join("|"),
  "i",
);

/**
 * A hint for a failed sandboxed execution whose stderr shows what its profile forbids: a write
 * refused (read-only file system, or permission denied on a write) or a connection or name
 * lookup that failed without network. The hint names the side effect to declare. Null when
 * the failure is not one the profile explains.
 */
export function sandboxHint(
  profile: SandboxProfile,
  mode: SandboxMode,
  outcome: SandboxOutcome,
): string | null {
  if (outcome.exitCode === null || outcome.exitCode === 0) return null;
  const text = outcome.stderr.slice(-SCAN_CHARS);
  const label = `The sandbox (${profileLabel(profile, mode)})`;
  const hints: string[] = [];
  if (refusedWrite(text)) hints.push(writeHint(profile, mode, label));
  if (!profile.network && OFFLINE.test(text)) {
    hints.push(
      `${label} has no network: declare MAKES_NETWORK_REQUESTS in side_effects to connect ` +
        "or resolve names (CHANGES_PACKAGES_OR_DEPENDENCIES for package installs)",
    );
  }
  return hints.length === 0 ? null : hints.join("; ");
}

function refusedWrite(text: string): boolean {
  if (READ_ONLY.test(text)) return true;
  return text.split("\n").some((line) => DENIED.test(line) && WRITING.test(line));
}

function writeHint(profile: SandboxProfile, mode: SandboxMode, label: string): string {
  if (profile.filesystem === "read-only") {
    return `${label} refused a write: only /tmp is writable; declare MODIFIES_WORKSPACE_FILES ` +
      "(or DELETES_FILES) in side_effects to write in the workspace";
  }
  if (mode === "strict") {
    return `${label} refused a write outside the workspace: the sandbox is strict, so only the ` +
      "workspace and /tmp are writable whatever is declared";
  }
  return `${label} refused a write outside the workspace: declare MODIFIES_OUTSIDE_WORKSPACE ` +
    "in side_effects, which runs unconfined only if the operator allows it (allow_unconfined)";
}
