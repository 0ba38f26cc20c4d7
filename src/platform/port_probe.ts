/** A loopback address the probe may connect to. */
export type ProbeHost = "127.0.0.1" | "::1";

/** Connects to loopback ports (the core's `PortProbe`). */
export interface LoopbackPortProbe {
  accepts(host: ProbeHost, port: number): Promise<boolean>;
  unavailable(host: ProbeHost): string | null;
}

/** Options for {@linkcode createPortProbe}. */
export interface PortProbeOptions {
  /** Longest one connection attempt may take (loopback answers at once). @default 1000 */
  connectTimeoutMs?: number;
}

/**
 * Probes loopback ports with a TCP connect that is closed at once. Needs Deno's net permission
 * for the host (`--allow-net=127.0.0.1,[::1]`, any port).
 */
export function createPortProbe(options: PortProbeOptions = {}): LoopbackPortProbe {
  const { connectTimeoutMs = 1_000 } = options;
  return {
    async accepts(host, port) {
      try {
        const connection = await Deno.connect({
          hostname: host,
          port,
          signal: AbortSignal.timeout(connectTimeoutMs),
        });
        connection.close();
        return true;
      } catch (error) {
        if (
          error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied
        ) {
          throw new Error(permissionText(host));
        }
        return false;
      }
    },
    unavailable(host) {
      const { state } = Deno.permissions.querySync({ name: "net", host: bracketed(host) });
      return state === "granted" ? null : permissionText(host);
    },
  };
}

function bracketed(host: ProbeHost): string {
  return host === "::1" ? "[::1]" : host;
}

function permissionText(host: ProbeHost): string {
  return `Cannot probe ports on ${host} as the server has no network permission for it; start the server with --allow-net=127.0.0.1,[::1] (the README's permission set for port conditions)`;
}
