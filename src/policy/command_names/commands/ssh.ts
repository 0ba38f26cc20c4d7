import type { Invocation, Next } from "../command_reader.ts";
import { scanOptions } from "../getopt.ts";
import { resolveIn } from "../run_context.ts";
import { readJoinedScript, readStdinScript } from "../embedded_scripts.ts";
import type { Arg } from "../words.ts";

/** Reads `ssh`: the remote command (joined like `sh -c`) and commands in `-o` options. */
export function readSsh(call: Invocation): Next {
  const { collector, args, start } = call;
  const scan = scanOptions(args, start, { short: "BbcDEeFIiJLlmOopQRSWw" }, "ssh");
  if ("unknown" in scan) return collector.fail(scan.unknown);
  let noCommand = false;
  for (const option of scan.options) {
    if (option.name === "-N") noCommand = true;
    if (option.name !== "-o" || option.value === undefined) continue;
    sshOption(call, option.value);
  }
  const host = scan.operands[0];
  if (host === undefined) return null;
  // OpenSSH reads options again after the destination, up to the remote command.
  const after = scanOptions(args, host + 1, { short: "BbcDEeFIiJLlmOopQRSWw" }, "ssh");
  if ("unknown" in after) return collector.fail(after.unknown);
  for (const option of after.options) {
    if (option.name === "-N") noCommand = true;
    if (option.name !== "-o" || option.value === undefined) continue;
    sshOption(call, option.value);
  }
  const command = after.operands;
  if (command.length > 0) {
    return readJoinedScript(call, command, "the command run by ssh on the remote host");
  }
  if (noCommand) return null;
  return readStdinScript(call, "the remote shell of ssh", true);
}

/** Reads an `ssh -o` option: the ones holding a local command are scripts. */
function sshOption(call: Invocation, value: Arg): void {
  const { collector, context } = call;
  const word = resolveIn(value, context);
  if (!("value" in word)) {
    collector.fail(`an ssh -o option contains ${word.dynamic}`);
    return;
  }
  const match = /^\s*(\w+)\s*(?:=|\s)\s*(.*)$/s.exec(word.value);
  if (match === null) return;
  if (/^(proxycommand|localcommand|knownhostscommand|remotecommand)$/i.test(match[1])) {
    collector.script(match[2], `the ssh ${match[1]} command`, context.nesting, "bash");
  }
}
