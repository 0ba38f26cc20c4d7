import type { ProcessTree } from "../core/process.ts";

/** The pid and pipes of a child, as its process tree exposes them. */
export function pipesOf(
  child: Deno.ChildProcess,
): Pick<ProcessTree, "pid" | "stdin" | "stdout" | "stderr"> {
  return { pid: child.pid, stdin: child.stdin, stdout: child.stdout, stderr: child.stderr };
}
