/** Where a bench ran: the figures that make its numbers comparable. */
export interface Machine {
  nproc: string;
  cpuModel: string;
  memory: string;
  deno: string;
  os: string;
  loadAverage: string;
}

function readOr(path: string, fallback: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return fallback;
  }
}

async function nproc(): Promise<string> {
  try {
    const { stdout } = await new Deno.Command("nproc", { stdout: "piped", stderr: "null" })
      .output();
    return new TextDecoder().decode(stdout).trim();
  } catch {
    return `${navigator.hardwareConcurrency} (navigator.hardwareConcurrency)`;
  }
}

/** Describes this machine: `nproc`, CPU model, memory, Deno version, OS, load average. */
export async function describeMachine(): Promise<Machine> {
  const cpuinfo = readOr("/proc/cpuinfo", "");
  const cpuModel = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1].trim() ?? "unknown";
  const memTotalKb = /^MemTotal:\s+(\d+)\s+kB/m.exec(readOr("/proc/meminfo", ""))?.[1];
  const memory = memTotalKb === undefined
    ? "unknown"
    : `${(Number(memTotalKb) / 1024 / 1024).toFixed(1)} GiB`;
  const osRelease = readOr("/etc/os-release", "");
  const distribution = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(osRelease)?.[1] ?? Deno.build.os;
  const { deno, v8, typescript } = Deno.version;
  return {
    nproc: await nproc(),
    cpuModel,
    memory,
    deno: `deno ${deno} (v8 ${v8}, typescript ${typescript})`,
    os: `${distribution}, kernel ${Deno.osRelease()}, ${Deno.build.target}`,
    loadAverage: readOr("/proc/loadavg", "unknown").split(" ").slice(0, 3).join(" "),
  };
}
