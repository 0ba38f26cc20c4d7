import { type Session, startServer } from "./harness.ts";

/** A server serving only tab-shell-mcp's tools, with `args` added and `env` over the server's. */
export function startTabShell(
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<Session> {
  return startServer({ args: ["--tools", "tab-shell", ...args], env });
}
