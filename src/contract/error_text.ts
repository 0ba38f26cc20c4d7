/** The message of a thrown value, for texts shown to the agent or the operator. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
