/** Outcome of a policy check: allowed, or denied with a message for the caller. */
export type Decision = { allow: true } | { allow: false; reason: string };
