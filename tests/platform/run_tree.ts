import type { ProcessTree } from "../../src/core/process.ts";

/** Runs a spawned tree to its end with `input` on stdin; its stdout, stderr and exit. */
export async function runTree(tree: ProcessTree, input = "") {
  const writer = tree.stdin.getWriter();
  if (input !== "") await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const [stdout, stderr] = await Promise.all([
    new Response(tree.stdout).text(),
    new Response(tree.stderr).text(),
  ]);
  const exit = await tree.exited;
  await tree.ended;
  tree.release();
  return { stdout, stderr, exit };
}
