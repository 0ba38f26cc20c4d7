/**
 * What issue 18 asked the bench to find out, written under the results of every full run. The
 * statements point at rows of the same run; the in-server profile figures were measured once,
 * by the method named, and are dated.
 */
export const FINDINGS = `## Findings (issue 18)

**Which round trip a client sees.** This bench once reported about 6 ms for the \`echo hello\`
round trip where an independent harness measured about 2 ms. Both drove the same server; the
difference was the bench's own client, which measured calls 11-210 of a fresh process whose SDK
client still ran as unoptimized JavaScript. The p50 row is now a warm client, as a long-lived
client sees it; "calls 11-110 of a fresh client and server" repeats the old protocol; the
side-by-side section is an independent harness (the SDK client and nothing of the tests) in the
same sitting, and its yieldshell column is within about a fifth of the p50 row (it also spawns a
floor sample between calls).

**Where a call goes** (timestamps inside the server, 2026-12-01, 2 cores at load 1-3, medians of
100 calls of \`echo hello\` 3 ms apart through a bare JSON-RPC client, 2.1-2.3 ms per call at the
client against 1.1-1.2 ms for the floor): 0.05 ms from the request line to the core (parse,
dispatch, zod check of the arguments), 0.37 ms to start (policy 0.09, checks 0.03, handing the
command to the standby 0.2), 0.96 ms from the start to the shell's exit being noticed (the
shell's exec and run: the floor's work), 0.12 ms for the page and result, 0.02 ms to the write;
the rest is the JSON-RPC hop both ways. Without the standby the start costs 0.6 ms more (the
blocking spawn of \`setsid\`) and the run 0.7 ms more (\`setsid\`'s own exec: every exec starts
glibc, whose CPUID probes trap to the hypervisor in this VM). For \`wait\` seeing an exit: 0.15-0.19
ms from the shell's status to the group being found gone, 0.07 ms to the record's end, 0.08 ms to
the wait waking, 0.10 ms for the page, 0.12-0.15 ms for the result and its write.

**What was cut.**
- The SDK's server is gone from the server side: \`src/protocol/\` is our own JSON-RPC session and
  \`transports/stdio_transport.ts\` our own line transport (the SDK's streamable HTTP transport is
  still used, loaded only for HTTP). The SDK's \`McpServer\` and \`StdioServerTransport\` import
  alone is the "importing the SDK server" row; it evaluates zod schemas for every MCP message,
  ajv and an HTTP stack at import.
- tools/list is converted by our own walk over the zod schemas (a few ms where zod's
  \`toJSONSchema\` took 10-20 at a cold start; a test holds the two equal for every tool).
- The start path (lane startup): config builds no zod schema unless a value is given, \`node:util\`
  only with arguments, the HTTP transport, the bash parser, the name checker and the terminal
  screen behind named specifiers (Deno reads the graph of every literal \`import()\` at startup:
  239 modules read, then 186), spool housekeeping after serving, armed with \`AbortSignal.timeout\`
  (Deno 2.9 loads its Node timers on the first \`setTimeout\`, 5-9 ms that the start paid before
  its first answers). Together with the protocol layer:
  spawn to tools/list from about 165 ms to about 86 ms on the raw client.
- Processes: a standby session leader (\`setsid\` and a dash waiting on stdin) takes the next
  command and execs the shell in place, and a lone simple command runs in place of its shell, so
  20 background \`sleep 30\` keep 3 helper processes (server, guardian, standby), where there were
  22. The standby is prepared once the server has been quiet for 10 ms after an answer: prepared
  between back-to-back calls on 2 cores it made each call slower than a plain spawn (4.0 against
  3.2-3.4 ms, measured side by side), while for calls 3 ms apart it cut the call from 3.3-3.6 ms to
  2.1-2.3 ms.
- Pipes are read into one reusable buffer (a short chunk no longer pins 64 KiB), no DOMException
  per call, no drain timer when the pipes already ended, and the pushes about an exit (log entry,
  channel, resource update) are sent after the answers already on their way: they were 0.2-0.3 ms
  of the exit notice.

**Targets** (each row's verdict is in the table):

- Round trip at most 1.3× the floor: the floor is a spawn inside the bench process with no IPC.
  What the call adds that no server can drop is the JSON-RPC hop both ways (two wake-ups of an
  idle process on a 2-core VM) and the zod check; what remains of ours is the start (0.37 ms with
  the standby) and the page (0.12 ms). At an agent's pace the standby serves every call; back to
  back none is prepared, and the call pays \`setsid\`'s spawn and exec. 1.3× would need a new
  session without an exec of its own, which \`Deno.Command\` cannot give (\`detached\` forks the
  whole server).
- Below mcp-server-commands: the peers row, same sitting, same harness, back to back; that peer
  runs \`/bin/sh -c\` through Node's \`child_process\` with no session, process group, output log,
  cursor or containment, so it has neither the \`setsid\` exec nor the standby to prepare.
- Cold start below 60 ms: the tool-layer row is the floor of any server whose tool schemas are zod
  objects: \`deno run\` of zod and \`src/mcp\` alone, building one session's tools/list in process,
  no config, core, platform or transport; zod's import is its own row. Below it there is only a
  tool layer without zod (JSON Schema as the source, our own validator), which this issue did not
  take on. mcp-server-commands, the peer that was at 49 ms, is at about the same
  time as ours in the side-by-side section on this machine. No compiled binary could be measured
  here: \`deno compile\` cannot fetch its runtime on these machines.
- Tree RSS of 20 background sleeps at most the best peer's: the peers row. Above the minimal SDK
  server's tree is V8's young generation, grown by the calls and not returned; the row with
  \`--v8-flags=--max-semi-space-size=1\` shows it. Summed RSS counts shared pages once per process;
  PSS divides them.
- Exit notice at most 1.5× the floor: the floor learns of the exit in the same process with no
  JSON-RPC hop; ours is the floor, about 0.6 ms in the server (above) and the hop.
`;
