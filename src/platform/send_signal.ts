/**
 * Sends `signal` to a pid (or, negative, a process group). False when the target no longer
 * exists; a target we may not signal counts as alive.
 */
export function sendSignal(target: number, signal: string): boolean {
  try {
    Deno.kill(target, signal as Deno.Signal);
    return true;
  } catch (error) {
    if (isGone(error)) return false;
    if (isDenied(error)) return true;
    throw error;
  }
}

function isGone(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound ||
    (error instanceof Error && /ESRCH/.test(error.message));
}

function isDenied(error: unknown): boolean {
  return error instanceof Deno.errors.PermissionDenied ||
    (error instanceof Error && /EPERM/.test(error.message));
}
