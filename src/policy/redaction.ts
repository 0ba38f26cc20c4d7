/** An environment value to hide from output, and the variable name shown in its marker. */
export interface Secret {
  name: string;
  value: string;
}

/** Values shorter than this (in code points) are never treated as secrets. */
export const MIN_SECRET_LENGTH = 8;

/** Longest unterminated `[REDACTED:` marker (in code points) held back while streaming. */
export const MAX_HELD_MARKER_LENGTH = 1024;

const MARKER_OPEN = "[REDACTED:";
const MARKER_SOURCE = "\\[REDACTED:[^\\]]+\\]";

/**
 * Secrets from `env`: every pair whose name `pattern` matches anywhere and whose value has at
 * least 8 code points, sorted by value length (longest first), then name, then value.
 */
export function collectSecrets(env: Record<string, string>, pattern: RegExp): Secret[] {
  return Object.entries(env)
    .filter(([name, value]) =>
      name.search(pattern) !== -1 && codePointLength(value) >= MIN_SECRET_LENGTH
    )
    .map(([name, value]) => ({ name, value }))
    .sort(compareSecrets);
}

/** `base` plus the secrets of an execution's `env` overlay, deduplicated as pairs and sorted. */
export function mergeSecrets(
  base: readonly Secret[],
  overlay: Record<string, string>,
  pattern: RegExp,
): Secret[] {
  const seen = new Set<string>();
  const merged: Secret[] = [];
  for (const secret of [...base, ...collectSecrets(overlay, pattern)]) {
    const key = JSON.stringify([secret.name, secret.value]);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push({ name: secret.name, value: secret.value });
  }
  return merged.sort(compareSecrets);
}

/**
 * Redacts a whole text at response time: secrets become `[REDACTED:<NAME>]`, an existing marker
 * that contains a secret is rewritten to name the longest one, other markers stay verbatim.
 * The reference stashes markers under random placeholders; one left-to-right scan gives the
 * same results without placeholders that output could collide with.
 */
export function redactText(text: string, secrets: readonly Secret[]): string {
  if (secrets.length === 0) return text;
  return new SecretMatcher(secrets).scan(text, text.length).output;
}

/**
 * Redacts a stream chunk by chunk with the same result as redacting the whole stream at once:
 * a tail that could still grow into a secret or a marker is held until more text or `flush()`.
 * Each push costs time in the chunk plus the held tail, never the stream's history.
 */
export class StreamingRedactor {
  #matcher: SecretMatcher | null;
  #pending = "";
  /** Trie node for the longest suffix of the pending text that begins some secret. */
  #node = 0;
  /** Index in the pending text of the last `[REDACTED:` with no `]` after it, or -1. */
  #markerStart = -1;

  constructor(secrets: readonly Secret[]) {
    this.#matcher = secrets.length === 0 ? null : new SecretMatcher(secrets);
  }

  /** Adds output and returns the part that is now safe to release, already redacted. */
  push(text: string): string {
    const matcher = this.#matcher;
    if (matcher === null) return text;
    if (text === "") return "";
    const previousLength = this.#pending.length;
    this.#pending += text;
    this.#node = matcher.trie.advance(this.#node, text);
    this.#trackMarker(previousLength);
    const boundary = this.#pending.length - this.#holdLength(matcher.trie);
    if (boundary === 0) return "";
    const { output, end } = matcher.scan(this.#pending, boundary);
    this.#release(end, matcher.trie);
    return output;
  }

  /** Releases everything still held (at end of stream), redacted. */
  flush(): string {
    const matcher = this.#matcher;
    if (matcher === null || this.#pending === "") return "";
    const { output } = matcher.scan(this.#pending, this.#pending.length);
    this.#pending = "";
    this.#node = 0;
    this.#markerStart = -1;
    return output;
  }

  #trackMarker(previousLength: number): void {
    const pending = this.#pending;
    let last = -1;
    const from = Math.max(0, previousLength - (MARKER_OPEN.length - 1));
    for (
      let at = pending.indexOf(MARKER_OPEN, from);
      at !== -1;
      at = pending.indexOf(MARKER_OPEN, at + 1)
    ) {
      last = at;
    }
    if (last !== -1) {
      this.#markerStart = pending.indexOf("]", last) === -1 ? last : -1;
    } else if (this.#markerStart !== -1 && pending.indexOf("]", previousLength) !== -1) {
      this.#markerStart = -1;
    }
  }

  #holdLength(trie: SecretTrie): number {
    const pending = this.#pending;
    let hold = trie.properPrefixLength(this.#node);
    if (this.#markerStart !== -1) {
      const markerLength = pending.length - this.#markerStart;
      if (
        markerLength <= MAX_HELD_MARKER_LENGTH ||
        (markerLength <= 2 * MAX_HELD_MARKER_LENGTH &&
          codePointLength(pending.slice(this.#markerStart)) <= MAX_HELD_MARKER_LENGTH)
      ) {
        hold = Math.max(hold, markerLength);
      }
    }
    for (let length = Math.min(MARKER_OPEN.length - 1, pending.length); length > hold; length--) {
      if (pending.endsWith(MARKER_OPEN.slice(0, length))) return length;
    }
    return hold;
  }

  #release(end: number, trie: SecretTrie): void {
    this.#pending = this.#pending.slice(end);
    this.#node = trie.shortenTo(this.#node, this.#pending.length);
    this.#markerStart = this.#markerStart >= end ? this.#markerStart - end : -1;
  }
}

/** The alternation of the contract: secrets longest first, then the marker pattern. */
class SecretMatcher {
  readonly trie: SecretTrie;
  #values: string[];
  #nameByValue = new Map<string, string>();
  #pattern: RegExp;

  constructor(secrets: readonly Secret[]) {
    for (const { name, value } of [...secrets].sort(compareSecrets)) {
      // Two names sharing one value: the first in sort order names the marker.
      if (!this.#nameByValue.has(value)) this.#nameByValue.set(value, name);
    }
    this.#values = [...this.#nameByValue.keys()];
    this.#pattern = new RegExp([...this.#values.map(escapeRegExp), MARKER_SOURCE].join("|"), "g");
    this.trie = new SecretTrie(this.#values);
  }

  /**
   * Redacts every match that starts before `limit`; a match may end past it. Returns the
   * redacted text up to `end`, the later of `limit` and the last match's end.
   */
  scan(text: string, limit: number): { output: string; end: number } {
    const pattern = this.#pattern;
    pattern.lastIndex = 0;
    let output = "";
    let copied = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match.index >= limit) break;
      output += text.slice(copied, match.index) + this.#replace(match[0]);
      copied = match.index + match[0].length;
    }
    const end = Math.max(limit, copied);
    return { output: output + text.slice(copied, end), end };
  }

  #replace(found: string): string {
    const name = this.#nameByValue.get(found);
    if (name !== undefined) return `[REDACTED:${name}]`;
    const contained = this.#values.find((value) => found.includes(value));
    return contained === undefined ? found : `[REDACTED:${this.#nameByValue.get(contained)}]`;
  }
}

/**
 * Aho-Corasick trie over the secret values (UTF-16 code units): tracks, in O(1) amortized per
 * character, the longest suffix of the stream that is a prefix of some secret.
 */
class SecretTrie {
  #children: Map<number, number>[] = [new Map()];
  #fail: number[] = [0];
  #depth: number[] = [0];
  /** Nearest node on the fail chain (itself included) that some secret extends. */
  #proper: number[] = [0];

  constructor(values: readonly string[]) {
    for (const value of values) {
      let node = 0;
      for (let i = 0; i < value.length; i++) {
        const unit = value.charCodeAt(i);
        let next = this.#children[node].get(unit);
        if (next === undefined) {
          next = this.#children.length;
          this.#children.push(new Map());
          this.#fail.push(0);
          this.#depth.push(this.#depth[node] + 1);
          this.#proper.push(0);
          this.#children[node].set(unit, next);
        }
        node = next;
      }
    }
    this.#link();
  }

  #link(): void {
    const queue = [0];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head];
      const fallback = this.#fail[node];
      this.#proper[node] = this.#children[node].size > 0 || node === 0
        ? node
        : this.#proper[fallback];
      for (const [unit, child] of this.#children[node]) {
        this.#fail[child] = node === 0 ? 0 : this.#step(fallback, unit);
        queue.push(child);
      }
    }
  }

  #step(node: number, unit: number): number {
    let current = node;
    for (;;) {
      const next = this.#children[current].get(unit);
      if (next !== undefined) return next;
      if (current === 0) return 0;
      current = this.#fail[current];
    }
  }

  /** The node after reading `text` from `node`. */
  advance(node: number, text: string): number {
    let current = node;
    for (let i = 0; i < text.length; i++) current = this.#step(current, text.charCodeAt(i));
    return current;
  }

  /** The node for the longest suffix of `node`'s string that has at most `length` units. */
  shortenTo(node: number, length: number): number {
    let current = node;
    while (this.#depth[current] > length) current = this.#fail[current];
    return current;
  }

  /** Length of the longest suffix of `node`'s string that is a proper prefix of a secret. */
  properPrefixLength(node: number): number {
    return this.#depth[this.#proper[node]];
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}

function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

function compareSecrets(a: Secret, b: Secret): number {
  return codePointLength(b.value) - codePointLength(a.value) ||
    compareCodePoints(a.name, b.name) ||
    compareCodePoints(a.value, b.value);
}

/** Orders strings by code point, as Python compares `str`. */
function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return (x.done ? 0 : 1) - (y.done ? 0 : 1);
    const difference = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
}
