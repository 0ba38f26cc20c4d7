/** How the body of a request is delimited on the wire. */
export type BodyFraming = { kind: "none" } | { kind: "length"; bytes: number } | {
  kind: "chunked";
};

/** A parsed HTTP/1.x request line and header section. */
export interface RequestHead {
  method: string;
  /** Path and query, always starting with `/`. */
  target: string;
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  minorVersion: 0 | 1;
  /** Header name-value pairs in order, names as sent. */
  headers: [string, string][];
  framing: BodyFraming;
  /** Whether the connection may carry another request after this one. */
  keepAlive: boolean;
  /** Whether the client waits for `100 Continue` before it sends the body. */
  expectsContinue: boolean;
}

/** A head refused with the status to answer and a message saying what to fix. */
export interface HeadRefusal {
  status: number;
  message: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Field values: visible ASCII, obs-text, spaces and tabs; never CR, LF or NUL.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const REQUEST_LINE = /^([^ ]+) ([^ ]+) HTTP\/(\d)\.(\d)$/;

/**
 * Parses a request head (the bytes before the empty line, decoded as Latin-1), refusing what
 * could be read two ways by two servers: folded lines, spaces before a colon, a body length given
 * both ways or twice differently, and transfer codings other than chunked.
 */
export function parseRequestHead(text: string): RequestHead | HeadRefusal {
  const lines = text.split("\r\n");
  const line = REQUEST_LINE.exec(lines[0]);
  if (line === null || !TOKEN.test(line[1])) {
    return bad(`the request line ${JSON.stringify(lines[0].slice(0, 80))} is not valid HTTP/1.1`);
  }
  const [, method, rawTarget, major, minor] = line;
  if (major !== "1" || (minor !== "0" && minor !== "1")) {
    return { status: 505, message: "HTTP version not supported: use HTTP/1.1" };
  }
  const target = originForm(rawTarget);
  if (target === null) {
    return bad(`the request target ${JSON.stringify(rawTarget.slice(0, 80))} is not a path`);
  }
  const headers: [string, string][] = [];
  for (const field of lines.slice(1)) {
    const colon = field.indexOf(":");
    const name = colon === -1 ? "" : field.slice(0, colon);
    const value = field.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "");
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) {
      return bad(`the header line ${JSON.stringify(field.slice(0, 80))} is malformed`);
    }
    headers.push([name, value]);
  }
  return completeHead({ method, target, minorVersion: minor === "1" ? 1 : 0, headers });
}

function completeHead(
  head: Pick<RequestHead, "method" | "target" | "minorVersion" | "headers">,
): RequestHead | HeadRefusal {
  const all = (name: string) =>
    head.headers.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);
  const hosts = all("host");
  if (head.minorVersion === 1 && hosts.length !== 1) {
    return bad("an HTTP/1.1 request needs exactly one Host header");
  }
  const framing = framingOf(all("transfer-encoding"), all("content-length"));
  if ("status" in framing) return framing;
  const connection = all("connection").join(",").toLowerCase().split(",").map((t) => t.trim());
  const keepAlive = head.minorVersion === 1
    ? !connection.includes("close")
    : connection.includes("keep-alive");
  const expectsContinue = head.minorVersion === 1 &&
    all("expect").some((value) => value.toLowerCase() === "100-continue");
  return { ...head, framing, keepAlive, expectsContinue };
}

function framingOf(codings: string[], lengths: string[]): BodyFraming | HeadRefusal {
  if (codings.length > 0 && lengths.length > 0) {
    return bad("send either Transfer-Encoding or Content-Length, not both");
  }
  if (codings.length > 0) {
    const coding = codings.join(",").split(",").map((part) => part.trim().toLowerCase());
    if (coding.length === 1 && coding[0] === "chunked") return { kind: "chunked" };
    return {
      status: 501,
      message: `Not implemented: Transfer-Encoding ${
        JSON.stringify(codings.join(", "))
      } is not supported; send the body with Content-Length or Transfer-Encoding: chunked`,
    };
  }
  if (lengths.length === 0) return { kind: "none" };
  const values = new Set(lengths.join(",").split(",").map((part) => part.trim()));
  const [value] = values;
  if (values.size !== 1 || !/^\d{1,15}$/.test(value)) {
    return bad(`Content-Length ${JSON.stringify(lengths.join(", "))} is not one byte count`);
  }
  return Number(value) === 0 ? { kind: "none" } : { kind: "length", bytes: Number(value) };
}

/** Path and query of an origin-form or absolute-form target, or null. */
function originForm(target: string): string | null {
  if (target.startsWith("/")) return /^[\x21-\x7e]+$/.test(target) ? target : null;
  if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) return null;
  const url = new URL(target);
  return `${url.pathname}${url.search}`;
}

function bad(reason: string): HeadRefusal {
  return { status: 400, message: `Bad request: ${reason}` };
}
