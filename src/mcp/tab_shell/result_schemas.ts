import { z } from "zod";

/** The fields of a finished command's result (tab-shell-mcp's `CommandResult`). */
export const commandResultFields = {
  exit_code: z.number().int().nullable().optional().describe(
    "The shell's exit code, -N when a signal N ended it, null on timeout or when it did not start",
  ),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  execution_time: z.number().optional().describe("Seconds from start to end"),
  truncated: z.boolean().optional().describe(
    'Output was cut to the character limit; "[...truncated]" marks each cut',
  ),
  command: z.string().optional().describe("The command as given"),
};

export const CommandResultSchema = z.object({
  status: z.enum(["success", "error", "timeout"]),
  ...commandResultFields,
});

export const taskStatus = z.enum(["running", "completed", "error", "timeout", "killed"]);

export const TaskSummarySchema = z.object({
  task_id: z.string(),
  command: z.string(),
  status: taskStatus,
  created_at: z.number().describe("Epoch seconds"),
  completed_at: z.number().nullable().describe("Epoch seconds; null while running"),
});

export const taskId = z.string().max(256);

/** A duration in the words of a tool description. */
export function describeMs(ms: number): string {
  if (ms === 0) return "no limit";
  if (!Number.isFinite(ms)) return "until the server exits";
  const seconds = ms / 1000;
  return seconds >= 3600 && seconds % 3600 === 0 ? `${seconds / 3600} h` : `${seconds} s`;
}
