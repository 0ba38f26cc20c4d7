import type { ProtocolServer } from "../protocol/protocol_server.ts";
import type { Logger } from "../logger.ts";
import { StdioTransport } from "./stdio_transport.ts";

/** Serves one session over stdin/stdout; resolves when the client goes away (stdin EOF). */
export async function serveStdio(server: ProtocolServer, logger?: Logger): Promise<void> {
  const closed = Promise.withResolvers<void>();
  const transport = new StdioTransport();
  transport.onclose = () => closed.resolve();
  transport.onerror = (error) => logger?.warn(error.message);
  await server.connect(transport);
  await closed.promise;
}
