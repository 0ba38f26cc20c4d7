import { createHash, timingSafeEqual } from "node:crypto";
import { isLoopbackHost } from "../policy/loopback.ts";

/** Addresses that bind every interface: any IP literal is then a valid `Host`. */
const WILDCARD_HOSTS = new Set(["0.0.0.0", "[::]", "::"]);

/**
 * Why a `Host` header is refused (DNS-rebinding protection), or null when it names the bound
 * host or a loopback name, with or without a port. When the server binds a wildcard address, an
 * IP literal is accepted too: a rebinding attack needs a DNS name, and every interface is bound.
 */
export function checkHost(hostHeader: string, boundHost: string): string | null {
  const refused = `Forbidden: Host header ${
    JSON.stringify(hostHeader)
  } names neither this server's address (${boundHost}) nor a loopback name; connect through one of them, such as http://localhost:<port>/mcp (DNS-rebinding protection refuses other names)`;
  const hostname = hostnameOf(hostHeader);
  if (hostname === null) return refused;
  if (isLoopbackHost(hostname)) return null;
  if (hostname === hostnameOf(urlHost(boundHost))) return null;
  if (WILDCARD_HOSTS.has(boundHost) && isIpLiteral(hostname)) return null;
  return refused;
}

/**
 * Why an `Origin` header is refused, or null when it is absent, loopback (http or https) or
 * listed in `allowedOrigins` (already normalized to `scheme://host[:port]`).
 */
export function checkOrigin(
  origin: string | null,
  allowedOrigins: readonly string[],
): string | null {
  if (origin === null) return null;
  const url = URL.canParse(origin) ? new URL(origin) : null;
  if (url !== null && url.origin !== "null") {
    const webScheme = url.protocol === "http:" || url.protocol === "https:";
    if (webScheme && isLoopbackHost(url.hostname)) return null;
    if (allowedOrigins.includes(url.origin)) return null;
  }
  return `Forbidden: Origin ${
    JSON.stringify(origin)
  } is not allowed; only loopback origins may call this server unless it is started with --allowed-origin ORIGIN`;
}

/**
 * Whether a browser page at `origin` may read replies (CORS): only when the origin is listed
 * with `--allowed-origin`. A loopback origin is not refused, but it is no proof of trust: any
 * local web page has one, and without CORS headers its browser does not let it read a reply or
 * send the headers a session needs.
 */
export function isCorsOrigin(origin: string | null, allowedOrigins: readonly string[]): boolean {
  if (origin === null || !URL.canParse(origin)) return false;
  const normalized = new URL(origin).origin;
  return normalized !== "null" && allowedOrigins.includes(normalized);
}

/**
 * Why an `Authorization` header does not carry the bearer `token`, or null when it does. The
 * comparison takes the same time wherever the first difference is, and whatever the lengths.
 */
export function checkBearer(authorization: string | null, token: string): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
  if (match !== null && constantTimeEqual(match[1], token)) return null;
  return authorization === null
    ? "Unauthorized: this server requires a bearer token; send the header 'Authorization: Bearer <token>' with the token the server was started with"
    : "Unauthorized: the bearer token is wrong or malformed; send 'Authorization: Bearer <token>' with the token the server was started with";
}

/** Compares two strings in time independent of their contents (SHA-256 digests, then XOR). */
export function constantTimeEqual(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The host as it is written in a URL: IPv6 literals in brackets. */
export function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** The normalized hostname of a `Host` header value, or null when it is not one. */
function hostnameOf(hostHeader: string): string | null {
  if (hostHeader === "" || /[\s/?#@\\]/.test(hostHeader)) return null;
  if (!URL.canParse(`http://${hostHeader}/`)) return null;
  return new URL(`http://${hostHeader}/`).hostname;
}

function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
}
