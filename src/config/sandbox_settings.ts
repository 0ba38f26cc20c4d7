import { SANDBOX_MODES, UNCONFINABLE_SIDE_EFFECTS } from "../policy/sandbox_profile.ts";
import type { SideEffect } from "../policy/side_effects.ts";
import type { Settings } from "./setting.ts";

/** The OS sandbox of each execution, and the operator's consent for what it cannot confine. */
export const SANDBOX_SETTINGS: Pick<Settings, "sandbox" | "allowUnconfined"> = {
  sandbox: {
    fileKey: "sandbox",
    env: "YIELDSHELL_SANDBOX",
    flag: "sandbox",
    valueName: "off|declared|strict",
    schema: (z) => z.enum(SANDBOX_MODES),
    expected: "off, declared or strict",
    default: () => "off",
    description:
      "OS sandbox of each execution (bubblewrap on Linux, sandbox-exec on macOS). off: none, as mcp-yieldshell. declared: the sandbox opens what side_effects declare (NONE: read-only, private /tmp, no network); categories it cannot confine are refused unless allow_unconfined lists them. strict: every execution stays inside the workspace whatever it declares. Startup fails where the sandbox cannot run.",
  },
  allowUnconfined: {
    fileKey: "allow_unconfined",
    env: "YIELDSHELL_ALLOW_UNCONFINED",
    flag: "allow-unconfined",
    valueName: "names",
    form: "commaList",
    schema: (z) =>
      z.array(z.enum(UNCONFINABLE_SIDE_EFFECTS as [SideEffect, ...SideEffect[]]))
        .transform((names) => [...new Set(names)]),
    expected: `a list of side effects the sandbox cannot confine: ${
      UNCONFINABLE_SIDE_EFFECTS.join(", ")
    }`,
    default: () => [],
    description:
      "Side effects the sandbox cannot confine that sandbox: declared still runs, without a sandbox (the operator's consent); others are refused. Ignored by sandbox: strict, which confines them to the workspace, and by sandbox: off. Comma-separated in the flag and the variable.",
  },
};
