/** Where the core reports what went wrong off the request path (a failed stop, a lost pipe). */
export interface Logger {
  warn(message: string): void;
}
