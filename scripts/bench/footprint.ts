import { footprint, SLEEPS } from "./peer_figures.ts";
import { yieldshellServer } from "./peer_servers.ts";
import { serverTree } from "./process_tree.ts";
import { median, sleep } from "./stats.ts";
import { openSession } from "./stdio_session.ts";
import type { SectionResult } from "./table.ts";

const root = new URL("../../", import.meta.url).pathname;
/** A smaller young generation: V8 keeps the pages a burst of calls grew it to. */
const SMALL_YOUNG_GENERATION = "--v8-flags=--max-semi-space-size=1";

/** RSS of the minimal SDK server (scripts/bench/minimal_server.ts) once it listed its tools. */
async function minimalServerRss(): Promise<number> {
  const marker = crypto.randomUUID();
  await using session = await openSession({
    command: Deno.execPath(),
    args: ["run", "-q", "-P=server", `${root}scripts/bench/minimal_server.ts`],
    cwd: root,
    env: { ...Deno.env.toObject(), YS_PEER_MARK: marker },
  });
  await session.listTools();
  await sleep(1_500);
  const readings: number[] = [];
  for (let reading = 0; reading < 5; reading++) {
    readings.push(
      serverTree(session.pid, marker, "sleep").helpers.reduce((t, p) => t + p.rssBytes, 0),
    );
    await sleep(100);
  }
  return median(readings);
}

/** The tree of a fresh server holding 20 background sleeps: memory and helper processes. */
export async function benchFootprint(): Promise<SectionResult> {
  const ours = await footprint(yieldshellServer(Deno.env.toObject()));
  if (ours === null) throw new Error("yieldshell has no background mode");
  const small = await footprint(yieldshellServer(Deno.env.toObject(), [SMALL_YOUNG_GENERATION]));
  const floor = await minimalServerRss();
  return {
    rows: [{
      figure:
        `tree RSS, ${SLEEPS} background \`sleep 30\` (sleeps excluded; ${ours.helpers} helper processes)`,
      ours: ours.rssBytes / 1e6,
      baseline: floor / 1e6,
      unit: "MB",
      target: "≤ best peer (see side by side)",
      met: null,
    }, {
      figure: `tree RSS, the same, server started with ${SMALL_YOUNG_GENERATION}`,
      ours: small!.rssBytes / 1e6,
      baseline: floor / 1e6,
      unit: "MB",
      target: "—",
      met: null,
    }, {
      figure: `tree PSS, the same tree (shared pages divided)`,
      ours: ours.pssBytes / 1e6,
      baseline: null,
      unit: "MB",
      target: "—",
      met: null,
    }],
    notes: [
      `Footprint: a fresh server as the README starts it runs one \`echo hello\`, then ${SLEEPS} \`sleep 30\` with yield_ms 0; after 1.5 s, the median of 5 readings of VmRSS (and Pss) summed over the server and all its descendants (and any process carrying its environment marker), the sleeps excluded; helper processes are that tree's processes other than the sleeps, the server included. Baseline: the minimal SDK server (scripts/bench/minimal_server.ts) after tools/list, measured the same way: the memory of any stdio server on this SDK under Deno. The second row starts the server with \`${SMALL_YOUNG_GENERATION}\` added to the README's command (V8 otherwise keeps the young-generation pages a burst of calls grew it to; nothing inside the process can shrink it). The target is the best peer's figure from the same sitting (the side-by-side section).`,
    ],
  };
}
