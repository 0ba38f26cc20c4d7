import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serverCommand, waitForExit } from "../../tests/e2e/harness.ts";
import type { SectionResult } from "./table.ts";

const root = new URL("../../", import.meta.url).pathname;
const PROFILES = ["yieldshell", "tab-shell", "both"] as const;

/** The tools/list result of a server started with `--tools <profile>`: its JSON and tool count. */
async function toolsList(profile: string): Promise<{ bytes: number; tools: number }> {
  const { command, args } = serverCommand(["--tools", profile]);
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: root,
    env: Deno.env.toObject(),
    stderr: "pipe",
  });
  const client = new Client({ name: "yieldshell-bench", version: "1.0.0" });
  let pid: number | null = null;
  try {
    await client.connect(transport);
    pid = transport.pid;
    const result = await client.listTools();
    const bytes = new TextEncoder().encode(JSON.stringify(result)).length;
    return { bytes, tools: result.tools.length };
  } finally {
    pid ??= transport.pid;
    await client.close().catch(() => {});
    if (pid !== null) await waitForExit(pid, 10_000);
  }
}

/**
 * What each tool profile costs the model before any call: the size of tools/list (names,
 * descriptions, input and output schemas, annotations). Deterministic, so measured once.
 */
export async function benchToolsList(): Promise<SectionResult> {
  const sizes = new Map<string, { bytes: number; tools: number }>();
  for (const profile of PROFILES) sizes.set(profile, await toolsList(profile));
  const ours = sizes.get("yieldshell")!;
  const theirs = sizes.get("tab-shell")!;
  return {
    rows: PROFILES.map((profile) => {
      const { bytes, tools } = sizes.get(profile)!;
      return {
        figure: `tools/list size, --tools ${profile} (${tools} tools)`,
        ours: bytes,
        // `both` against the two sets apart: serving them together adds nothing.
        baseline: profile === "both" ? ours.bytes + theirs.bytes : null,
        unit: "bytes",
        target: "—",
        met: null,
      };
    }),
    notes: [
      "Tools/list size: the JSON of the tools/list result as the SDK client receives it (UTF-8 bytes), one server per profile started with `deno run -P=server main.ts --tools <profile>` and the default configuration (descriptions quote the configured limits). Baseline of `both`: the two other rows added. Roughly 4 bytes make one model token.",
    ],
  };
}
