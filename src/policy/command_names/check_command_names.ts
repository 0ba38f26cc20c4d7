import { errorText } from "../../contract/error_text.ts";
import { BashParseError } from "./bash_parse_error.ts";
import type { BashParser } from "./bash_parser.ts";
import type { Decision } from "../decision.ts";
import { extractCommandNames, type ExtractOptions } from "./extract_command_names.ts";
import type { ExtractResult } from "./extract_result.ts";
import { quoteName, UNKNOWN_SUFFIX } from "./messages.ts";
import { blacklistKey, checkName, listMode, type Mode, type NameLists } from "./name_lists.ts";

/** Options of {@link checkCommandNames}: how the command will run. */
export type CheckOptions = Pick<ExtractOptions, "dialect" | "shDialect" | "env">;

/**
 * Checks every command name `command` would run against the lists.
 * Allows without parsing when both lists are empty; never throws.
 */
export function checkCommandNames(
  command: string,
  lists: NameLists,
  parser: BashParser,
  options: CheckOptions = {},
): Decision {
  const mode = listMode(lists);
  if (mode === null) return { allow: true };
  try {
    // One time budget for the command and every script found inside it.
    const deadline = performance.now() + parser.timeoutMs;
    let tree;
    try {
      tree = parser.parse(command, { deadline });
    } catch (error) {
      if (!(error instanceof BashParseError)) throw error;
      return refuse(`Command could not be parsed as bash: ${error.message}`);
    }
    try {
      if (tree.rootNode.hasError) return refuse("Command could not be parsed as bash");
      const result = extractCommandNames(tree.rootNode, parser, {
        ...options,
        source: command,
        deadline,
      });
      return decide(result, lists, mode);
    } finally {
      tree.delete();
    }
  } catch (error) {
    return refuse(`Command could not be checked (${errorText(error)})`);
  }
}

/** A refusal for why the command could not be checked: the policy fails closed. */
function refuse(why: string): Decision {
  return {
    allow: false,
    reason: `${why}; the command-name policy fails closed while a list is configured`,
  };
}

/** The names decide first, then a refusal, then an unknown name, then shadowing functions. */
function decide(result: ExtractResult, lists: NameLists, mode: Mode): Decision {
  for (const name of result.names) {
    const decision = checkName(name, lists, mode);
    if (!decision.allow) return decision;
  }
  if ("refused" in result) return { allow: false, reason: result.refused };
  if ("unknown" in result) {
    return {
      allow: false,
      reason: `Command name cannot be determined statically (${result.unknown})${UNKNOWN_SUFFIX}`,
    };
  }
  if (mode === "blacklist") {
    const blocked = new Set(lists.blacklist.map(blacklistKey));
    const shadow = result.functions.find((name) => blocked.has(blacklistKey(name)));
    if (shadow !== undefined) {
      return {
        allow: false,
        reason: `Defining a function named ${quoteName(shadow)} is blocked by the blacklist`,
      };
    }
  }
  return { allow: true };
}
