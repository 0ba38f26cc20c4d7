import type { OptionSpec } from "../getopt.ts";

/** How a wrapper's arguments name the command it runs. */
export interface WrapperSpec extends OptionSpec {
  /** Options after which the operands are not run (`command -v`, `sudo -l`). */
  queries?: string;
  /** Operands before the command (`timeout DURATION`, `chroot NEWROOT`). */
  operands?: number;
  /** `NAME=VALUE` words before the command set the environment (`sudo`). */
  assignments?: boolean;
  /** Options that start a shell reading standard input when no command follows. */
  shell?: string;
  /** Whether the wrapper starts a shell reading standard input when no command follows. */
  bareShell?: boolean;
  /** Options whose value is a shell command line. */
  scripts?: string;
  /** Words before the options (`setarch ARCH [options] command`). */
  leading?: number;
  /** Options that make the policy refuse, each with why (`ld.so --preload`). */
  refuses?: Readonly<Record<string, string>>;
  /** Operands before the command when no option is given (`runcon CONTEXT command`). */
  operandsWithoutOptions?: number;
  /** Words after the operands that make the next one a shell command (`flock FILE -c`). */
  scriptAfterOperands?: readonly string[];
}
