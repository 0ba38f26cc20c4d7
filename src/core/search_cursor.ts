import type { StreamName } from "./output_log.ts";

/** Where the search of one stream continues (a line start, or a cut in a very long line). */
export interface StreamCursor {
  stream: StreamName;
  seq: number;
}

/** A bad `cursor` or other search input; the message says what to pass instead. */
export class SearchError extends Error {
  override name = "SearchError";
}

/** The continuation cursor: `stdout:SEQ,stderr:SEQ`. */
export function encodeCursor(cursors: readonly StreamCursor[]): string {
  return cursors.map(({ stream, seq }) => `${stream}:${seq}`).join(",");
}

const PART = /^(stdout|stderr):([1-9][0-9]{0,15})$/;

/** Reads a cursor for `streams` (the same streams as the search that returned it). */
export function decodeCursor(text: string, streams: readonly StreamName[]): StreamCursor[] {
  const cursors: StreamCursor[] = [];
  for (const part of text.split(",")) {
    const match = PART.exec(part.trim());
    if (match === null) {
      throw new SearchError(
        `Cannot continue the search as cursor ${
          JSON.stringify(text.slice(0, 100))
        } is not one a search returned; pass next_cursor of the previous search unchanged, or no cursor to search from the start`,
      );
    }
    const [, stream, seq] = match;
    cursors.push({ stream: stream as StreamName, seq: Number(seq) });
  }
  const named = cursors.map((cursor) => cursor.stream).sort().join(",");
  if (
    named !== [...streams].sort().join(",") || new Set(named.split(",")).size !== cursors.length
  ) {
    throw new SearchError(
      `Cannot continue the search as the cursor is for streams ${named} and this search is for ${
        streams.join(",")
      }; pass the same streams as the search that returned it`,
    );
  }
  return streams.map((stream) => cursors.find((cursor) => cursor.stream === stream)!);
}
