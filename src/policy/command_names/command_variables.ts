/** Environment variables whose value is a command line that some program runs. */
export const COMMAND_VARIABLES: ReadonlySet<string> = new Set([
  "BROWSER",
  "EDITOR",
  "GIT_ASKPASS",
  "GIT_EDITOR",
  "GIT_EXTERNAL_DIFF",
  "GIT_PAGER",
  "GIT_PROXY_COMMAND",
  "GIT_SEQUENCE_EDITOR",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "LESSCLOSE",
  "LESSOPEN",
  "MANPAGER",
  "PAGER",
  "PROMPT_COMMAND",
  "RSYNC_RSH",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "SUDO_EDITOR",
  "VISUAL",
]);

/** Environment variables that make a shell run a file first. */
export const STARTUP_VARIABLES: ReadonlySet<string> = new Set(["BASH_ENV", "ENV"]);
