import type { Invocation } from "../command_reader.ts";
import { readOptionScripts } from "../embedded_scripts.ts";
import { resolveIn } from "../run_context.ts";

/** Options of git subcommands whose value is a command git runs through the shell. */
const PROGRAM_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  clone: ["-u", "--upload-pack"],
  fetch: ["--upload-pack"],
  pull: ["--upload-pack"],
  "ls-remote": ["--upload-pack"],
  archive: ["--exec"],
  push: ["--receive-pack", "--exec"],
  "send-email": ["--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd"],
  grep: ["-O", "--open-files-in-pager"],
};

/** Options that make git install or run files from elsewhere. */
const FILE_OPTIONS = /^--(template|smtp-server=\/|httpd|browser|[\w-]+-callback)(=|$)/;

/** The merge strategies built into git; any other runs `git-merge-NAME` from PATH. */
const STRATEGIES = new Set(["ort", "recursive", "resolve", "octopus", "ours", "subtree"]);

/**
 * Reads the options of a git subcommand that run programs: `--upload-pack`, `--exec`, `-O`,
 * custom merge strategies, templates (hooks), and `ext::` transports, which run a command.
 */
export function readGitPrograms(call: Invocation, sub: string, start: number): null {
  const { collector, args, context } = call;
  for (let i = start; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    if (!("value" in word)) continue;
    const text = word.value;
    if (/^ext::/i.test(text) || /^(--[\w-]+=)?ext::/i.test(text)) {
      return collector.fail("an ext:: URL makes git run a command");
    }
    if (FILE_OPTIONS.test(text)) {
      return collector.fail(
        `git ${sub} ${text.split("=")[0]} makes git run files the policy cannot see`,
      );
    }
    const strategy = /^(?:-s|--strategy)(?:=?(.+))?$/.exec(text);
    if (strategy !== null && /^(merge|pull|rebase|cherry-pick|revert)$/.test(sub)) {
      const next = args[i + 1] === undefined ? null : resolveIn(args[i + 1], context);
      const value = strategy[1] ?? (next !== null && "value" in next ? next.value : null);
      if (value === null || !STRATEGIES.has(value)) {
        return collector.fail(`git ${sub} ${text} runs a merge strategy program from PATH`);
      }
    }
  }
  const names = PROGRAM_OPTIONS[sub];
  if (names === undefined) return null;
  return readOptionScripts(call, start, { who: `git ${sub}`, names });
}
