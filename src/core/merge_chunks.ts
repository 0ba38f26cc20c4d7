import type { Chunk } from "./ring_buffer.ts";

/** A chunk labelled with the stream it came from. */
export interface TaggedChunk<S extends string> extends Chunk {
  readonly stream: S;
}

/** Labels each chunk of `chunks` with `stream`. */
export function* tagChunks<S extends string>(
  stream: S,
  chunks: Iterable<Chunk>,
): Generator<TaggedChunk<S>> {
  for (const { startSeq, bytes } of chunks) yield { stream, startSeq, bytes };
}

/** Merges position-ordered chunk sources (at most two, so a linear pick beats a heap). */
export function* mergeChunks<T extends Chunk>(
  sources: Iterator<T>[],
  order: "oldestFirst" | "newestFirst",
): Generator<T> {
  const heads = sources.map((source) => next(source));
  while (true) {
    let pick = -1;
    for (let index = 0; index < heads.length; index++) {
      const head = heads[index];
      if (head === undefined) continue;
      const best = heads[pick];
      if (
        best === undefined ||
        (order === "oldestFirst" ? head.startSeq < best.startSeq : head.startSeq > best.startSeq)
      ) {
        pick = index;
      }
    }
    const chunk = heads[pick];
    if (chunk === undefined) return;
    yield chunk;
    heads[pick] = next(sources[pick]);
  }
}

function next<T>(source: Iterator<T>): T | undefined {
  const result = source.next();
  return result.done ? undefined : result.value;
}
