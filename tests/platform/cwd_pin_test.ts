import assert from "node:assert/strict";
import { pinnedArgv } from "../../src/platform/cwd_pin.ts";
import { ON_POSIX } from "../os.ts";

async function runPinned(spawnCwd: string, checked: string) {
  const { program, args } = pinnedArgv({ program: "/bin/sh", args: ["-c", "pwd -P"] }, checked);
  const output = await new Deno.Command(program, { args, cwd: spawnCwd }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

Deno.test({
  name: "the pin runs the command only in the directory that was checked",
  ignore: !ON_POSIX,
  fn: async () => {
    const real = await Deno.realPath(await Deno.makeTempDir({ prefix: "ys-pin-" }));
    const link = `${real}-link`;
    try {
      await Deno.symlink("/etc", link);
      assert.deepEqual(await runPinned(real, real), { code: 0, stdout: `${real}\n`, stderr: "" });
      // The checked path now leads to /etc: the command does not run.
      const swapped = await runPinned(link, link);
      assert.equal(swapped.code, 126);
      assert.equal(swapped.stdout, "");
      assert.equal(
        swapped.stderr,
        `Cannot start in ${link} as it was replaced after the cwd check (it resolves to /etc ` +
          "now); pass a directory that stays in place\n",
      );
    } finally {
      await Deno.remove(link).catch(() => {});
      await Deno.remove(real, { recursive: true });
    }
  },
});
