import { sendSignal } from "../send_signal.ts";

/**
 * Whether a live (non-zombie) process other than the server is left in session `sid`: jobs of
 * an interactive shell run in groups of their own, so the leader's group is not enough. Asks
 * `ps -s` (procps); where that fails, only the leader's group is checked.
 */
export async function sessionAlive(sid: number, selfPid: number): Promise<boolean> {
  let stdout: Uint8Array;
  try {
    ({ stdout } = await new Deno.Command("ps", {
      args: ["-s", String(sid), "-o", "pid=,stat="],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output());
  } catch {
    return sendSignal(-sid, "SIGURG");
  }
  return new TextDecoder().decode(stdout).split("\n").some((line) => {
    const [pid, stat] = line.trim().split(/\s+/);
    return pid !== undefined && stat !== undefined && Number(pid) !== selfPid &&
      !stat.startsWith("Z");
  });
}
