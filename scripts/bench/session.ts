import type { Session } from "../../tests/e2e/harness.ts";

// deno-lint-ignore no-explicit-any
export type Payload = Record<string, any>;

/** Calls a tool and returns its payload; throws when the reply is an error. */
export async function callOk(
  session: Session,
  name: string,
  args: Record<string, unknown>,
): Promise<Payload> {
  const reply = await session.call(name, args);
  if (reply.isError) throw new Error(`${name} failed: ${reply.text}`);
  return reply.payload;
}

/** Side effects of the read-only commands the bench runs. */
export const NONE = ["NONE"];

/** A command printing exactly `bytes` bytes of `x` (no newline). */
export function xBytesCommand(bytes: number): string {
  return `head -c ${bytes} /dev/zero | tr '\\0' x`;
}

/** Waits (in `wait` calls) until the execution exits; returns the last payload. */
export async function waitExited(session: Session, executionId: string): Promise<Payload> {
  while (true) {
    const payload = await callOk(session, "wait", {
      execution_id: executionId,
      timeout_ms: 55_000,
      max_output_bytes: 1,
    });
    if (payload.wait_result === "exited") return payload;
  }
}
