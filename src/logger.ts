/** The one place that writes diagnostics; stdout belongs to JSON-RPC. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger writing `yieldshell: <level>: <message>` lines to stderr. */
export function createStderrLogger(options: { quiet?: boolean } = {}): Logger {
  const { quiet = false } = options;
  return {
    info: (message) => {
      if (!quiet) console.error(`yieldshell: ${message}`);
    },
    warn: (message) => console.error(`yieldshell: warning: ${message}`),
    error: (message) => console.error(`yieldshell: error: ${message}`),
  };
}
