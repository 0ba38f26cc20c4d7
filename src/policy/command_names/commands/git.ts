import type { Invocation, Next } from "../command_reader.ts";
import { resolveIn } from "../run_context.ts";
import { readJoinedScript, readOptionScripts } from "../embedded_scripts.ts";
import { wordProblem } from "../words.ts";
import { readGitPrograms } from "./git_programs.ts";

/** Reads `git`: `-c` settings and subcommands that run commands (`rebase -x`, `bisect run`...). */
export function readGit(call: Invocation): Next {
  const i = gitSubcommandIndex(call);
  if (i === null || i >= call.args.length) return null;
  const sub = resolveIn(call.args[i], call.context);
  if (!("value" in sub)) return null;
  readGitPrograms(call, sub.value, i + 1);
  return readGitSubcommand(call, sub.value, i + 1);
}

/** Reads git's options before the subcommand: its index, or null when reading stops there. */
function gitSubcommandIndex(call: Invocation): number | null {
  const { collector, args, start, context } = call;
  let i = start;
  for (; i < args.length; i++) {
    const word = resolveIn(args[i], context);
    const problem = wordProblem(word, "an argument of git before its subcommand");
    if (problem !== null || !("value" in word)) return collector.fail(problem ?? "");
    const text = word.value;
    if (!text.startsWith("-")) break;
    if (text === "-c" || text === "--config-env") {
      const value = args[i + 1];
      i++;
      if (value === undefined) return null;
      const pair = resolveIn(value, context);
      if (!("value" in pair)) return collector.fail(`a git -c setting contains ${pair.dynamic}`);
      gitSetting(call, pair.value, text === "--config-env");
    } else if (text.startsWith("-c") && text.length > 2) {
      gitSetting(call, text.slice(2), false);
    } else if (text.startsWith("--config-env=")) {
      gitSetting(call, text.slice("--config-env=".length), true);
    } else if (text.startsWith("--exec-path=")) {
      return collector.fail("git --exec-path runs git subcommands from another directory");
    } else if (/^-[C]$|^--(git-dir|work-tree|namespace)$/.test(text)) i++;
  }
  return i;
}

const FILTER_BRANCH_SCRIPTS = [
  "--env-filter",
  "--tree-filter",
  "--index-filter",
  "--parent-filter",
  "--msg-filter",
  "--commit-filter",
  "--tag-name-filter",
];

/** The subcommands that run commands, their arguments from `rest`. */
function readGitSubcommand(call: Invocation, sub: string, rest: number): Next {
  switch (sub) {
    case "rebase":
      return readOptionScripts(call, rest, { who: "git rebase", names: ["-x", "--exec"] });
    case "difftool":
      return readOptionScripts(call, rest, { who: "git difftool", names: ["-x", "--extcmd"] });
    case "filter-branch":
      return readOptionScripts(call, rest, {
        who: "git filter-branch",
        names: FILTER_BRANCH_SCRIPTS,
      });
    case "bisect":
      return readBisectRun(call, rest);
    case "submodule":
      return readSubmoduleForeach(call, rest);
    case "config":
      return readGitConfig(call, rest);
  }
  return null;
}

/** `git bisect run CMD...`: the command runs as a command of its own. */
function readBisectRun(call: Invocation, rest: number): Next {
  const { args, context } = call;
  const verb = args[rest] === undefined ? null : resolveIn(args[rest], context);
  if (verb === null || !("value" in verb) || verb.value !== "run") return null;
  return {
    args,
    index: rest + 1,
    context: { ...context, stdin: null, nesting: context.nesting + 1 },
  };
}

/** `git submodule foreach [options] SCRIPT...`: the operands are one shell script. */
function readSubmoduleForeach(call: Invocation, rest: number): Next {
  const { args, context } = call;
  for (let k = rest; k < args.length; k++) {
    const verb = resolveIn(args[k], context);
    if (!("value" in verb) || verb.value !== "foreach") continue;
    const operands: number[] = [];
    let options = true;
    for (let m = k + 1; m < args.length; m++) {
      const part = resolveIn(args[m], context);
      if (options && "value" in part && part.value.startsWith("-")) continue;
      options = false;
      operands.push(m);
    }
    return readJoinedScript(call, operands, "the command given to git submodule foreach");
  }
  return null;
}

/** `git config KEY VALUE`: a setting that holds a command is read as git reads it. */
function readGitConfig(call: Invocation, rest: number): Next {
  const { collector, args, context } = call;
  const operands = configOperands(call, rest);
  if (operands.length < 2) return null;
  const key = resolveIn(args[operands[0]], context);
  if (!("value" in key)) return collector.fail(`a git config key contains ${key.dynamic}`);
  if (!gitCommandKey(key.value)) return null;
  const value = resolveIn(args[operands[1]], context);
  if (!("value" in value)) return collector.fail(`a git config value contains ${value.dynamic}`);
  gitSetting(call, `${key.value}=${value.value}`, false);
  return null;
}

/** Indices of `git config`'s operands (a leading `set` and options with their values skipped). */
function configOperands(call: Invocation, rest: number): number[] {
  const { args, context } = call;
  const operands: number[] = [];
  for (let k = rest; k < args.length; k++) {
    const part = resolveIn(args[k], context);
    if (!("value" in part)) {
      operands.push(k);
      continue;
    }
    if (/^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(part.value)) k++;
    else if (!part.value.startsWith("-") && !(operands.length === 0 && part.value === "set")) {
      operands.push(k);
    }
  }
  return operands;
}

/** Reads a git setting (`key=value`): a command in it is a script, a file path is unknown. */
function gitSetting(call: Invocation, pair: string, fromEnvironment: boolean): void {
  const { collector, context } = call;
  const eq = pair.indexOf("=");
  const key = (eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
  const value = eq < 0 ? "" : pair.slice(eq + 1);
  const kind = gitCommandKey(key);
  if (kind === null) return;
  if (kind === "unknown") {
    collector.fail(`git setting ${key} makes git run files the policy cannot see`);
    return;
  }
  if (fromEnvironment) {
    collector.fail(`git setting ${key} takes a command from an environment variable`);
    return;
  }
  if (kind === "alias" && !value.startsWith("!")) return;
  const command = value.startsWith("!") ? value.slice(1) : value;
  if (command.trim() !== "") {
    collector.script(command, `the command in git setting ${key}`, context.nesting, "bash");
  }
}

/** Which git settings hold commands: "alias", "command", "unknown" (runs files), or null. */
function gitCommandKey(key: string): "alias" | "command" | "unknown" | null {
  const k = key.toLowerCase();
  if (k.startsWith("alias.")) return "alias";
  if (
    /^(core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy)|sequence\.editor|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|credential\.(.+\.)?helper|gpg\.(.+\.)?program|pager\..+|interactive\.difffilter|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack)|(mergetool|difftool|browser|man)\..+\.(cmd|path)|web\.browser|sendemail\..*(cmd|smtpserver)|submodule\..+\.update|core\.alternaterefscommand)$/
      .test(k)
  ) return "command";
  if (/^(core\.hookspath|include\.path|includeif\..+\.path|init\.templatedir)$/.test(k)) {
    return "unknown";
  }
  return null;
}
