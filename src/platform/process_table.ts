/** One row of `ps`. */
export interface ProcessRow {
  pid: number;
  pgid: number;
  zombie: boolean;
  /** Arguments, followed by the environment when the table was read with it. */
  args: string;
}

/** `ps` snapshots of the process table; callers arriving during a scan share it. */
export class ProcessTable {
  #withEnvironment: boolean;
  #inflight: Promise<ProcessRow[] | null> | null = null;

  constructor(withEnvironment: boolean) {
    this.#withEnvironment = withEnvironment;
  }

  /** The rows, or null when `ps` cannot be run. */
  snapshot(): Promise<ProcessRow[] | null> {
    this.#inflight ??= this.#scan().finally(() => {
      this.#inflight = null;
    });
    return this.#inflight;
  }

  async #scan(): Promise<ProcessRow[] | null> {
    // procps prints each process's environment after its arguments with `e`;
    // reading /proc directly would need --allow-all under Deno 2.9.
    const args = this.#withEnvironment
      ? ["-e", "e", "-ww", "-o", "pid=,pgid=,stat=,args="]
      : ["-A", "-o", "pid=,pgid=,stat="];
    try {
      const output = await new Deno.Command("ps", {
        args,
        stdin: "null",
        stdout: "piped",
        stderr: "null",
      }).output();
      return parseRows(new TextDecoder().decode(output.stdout));
    } catch {
      return null;
    }
  }
}

function parseRows(text: string): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const line of text.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    if (match === null) continue;
    rows.push({
      pid: Number(match[1]),
      pgid: Number(match[2]),
      zombie: match[3].startsWith("Z"),
      args: match[4],
    });
  }
  return rows;
}
