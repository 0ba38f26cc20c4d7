/** Whether `program` is installed and answers `args` successfully (output discarded). */
export async function programRuns(program: string, args: string[]): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(program, {
      args,
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}
