/**
 * Whether binding `host` keeps the server on this machine: `localhost`, 127.0.0.0/8 (in any
 * notation the URL parser accepts, such as `127.1`), `::1`, and IPv4-mapped 127.0.0.0/8.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const literal = bare.includes(":") ? `[${bare}]` : bare;
  if (!URL.canParse(`http://${literal}/`)) return false;
  const { hostname } = new URL(`http://${literal}/`);
  if (hostname === "localhost" || hostname === "localhost.") return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(hostname)) return true;
  if (hostname === "[::1]") return true;
  // IPv4-mapped IPv6: [::ffff:7f00:1] is 127.0.0.1.
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname);
}
