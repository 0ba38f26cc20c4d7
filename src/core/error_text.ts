/** The message of a thrown value, for error texts shown to the agent. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
