import { ExecutionSpool } from "./execution_spool.ts";
import {
  closeQuietly,
  prepareDirectory,
  removeQuietly,
  removeStaleDirectories,
} from "./spool_directory.ts";
import type { SpoolSegment } from "./spool_segment.ts";
import type { DiskSpace, SpoolDisk, SpoolFile } from "./spool_port.ts";
import { PAGE_BLOCK_BYTES } from "./stream_spool_options.ts";

export { ExecutionSpool } from "./execution_spool.ts";

const MIB = 1_048_576;
/** Most bytes of the file system kept free, at most a tenth of its size. */
const MAX_FREE_MARGIN_BYTES = 256 * MIB;
/** Free space is measured again after this many bytes were written, at most this often. */
const SPACE_PROBE_BYTES = 64 * MIB;
const SPACE_PROBE_MIN_MS = 1_000;
const MAX_OPEN_FILES = 64;

/** Options for {@linkcode Spool.open}. */
export interface SpoolOptions {
  disk: SpoolDisk;
  /** `spool_dir`: holds one subdirectory per server process, named by its pid. */
  root: string;
  /** This server's process id. */
  pid: number;
  /** `max_spool_bytes`: most bytes kept per stream of one execution. */
  maxStreamBytes: number;
  /** `max_spool_total_bytes`: most bytes on disk for the whole server. */
  maxTotalBytes: number;
  /** Size at which a stream starts a new segment file. @default maxStreamBytes / 16, 1 to 64 MiB */
  segmentBytes?: number;
  /** Bytes of the file system left free. @default min(256 MiB, a tenth of its size) */
  freeMarginBytes?: number;
  /** Free space is measured again after this many bytes were written (at most once a second). @default 64 MiB */
  spaceProbeBytes?: number;
  /** Most segment files open at once (least recently used ones are closed). @default 64 */
  maxOpenFiles?: number;
  /**
   * Leaves the directories of dead servers and the first free-space measurement to
   * {@linkcode Spool.housekeep} (the server calls it after startup; the first execution
   * measures the space if it has not been yet). @default false: both at once
   */
  deferHousekeeping?: boolean;
  /** Spacing of each segment's in-memory index. @default 64 KiB */
  checkpointBytes?: number;
  /** Staging buffer of each stream; larger appends are written directly. @default 128 KiB */
  stagingBytes?: number;
  /** Read block and largest chunk of a page read. @default 64 KiB */
  blockBytes?: number;
}

interface SpaceProbe extends DiskSpace {
  /** Bytes the spool held when the space was measured. */
  usedBytes: number;
}

/**
 * The server's output spool: a private directory per server process under `spool_dir`, the
 * server-wide byte total (oldest segments go first) and the open files. It never throws: a
 * directory that cannot be made leaves `problem` set, and executions keep their output in memory.
 */
export class Spool {
  readonly root: string;
  /** This process's directory, or null when the spool is unusable. */
  readonly directory: string | null;
  #staleRemoved: readonly string[] | null = null;
  #owner: number | null;
  #problem: string | null;
  #options: SpoolOptions;
  #segmentBytes: number;
  #queue: SpoolSegment[] = [];
  #queueHead = 0;
  #files = new Map<SpoolSegment, SpoolFile>();
  #usedBytes = 0;
  #space: SpaceProbe | null = null;
  #writtenSinceProbe = 0;
  #probedAt = -Infinity;
  #probe: Promise<void> | null = null;
  #nextExecution = 1;
  #closed = false;
  #scratch = new Map<string, Uint8Array>();

  private constructor(
    options: SpoolOptions,
    opened: { directory: string | null; problem: string | null; owner: number | null },
  ) {
    this.#options = options;
    this.root = options.root;
    this.directory = opened.directory;
    this.#problem = opened.problem;
    this.#owner = opened.owner;
    const { maxStreamBytes, segmentBytes } = options;
    this.#segmentBytes = segmentBytes ??
      Math.min(64 * MIB, Math.max(MIB, Math.floor(maxStreamBytes / 16)));
  }

  /**
   * Makes this server's directory; unless `deferHousekeeping`, also removes those of dead
   * servers and starts measuring space ({@linkcode Spool.housekeep}).
   */
  static open(options: SpoolOptions): Spool {
    const spool = new Spool(options, prepareDirectory(options));
    if (!options.deferHousekeeping) spool.housekeep();
    return spool;
  }

  /**
   * Removes the directories of dead servers and starts measuring free space, once; returns the
   * directories removed (also on later calls).
   */
  housekeep(): readonly string[] {
    if (this.#staleRemoved !== null) return this.#staleRemoved;
    this.#staleRemoved = [];
    if (this.directory === null || this.#closed) return this.#staleRemoved;
    const { disk, root, pid } = this.#options;
    this.#staleRemoved = removeStaleDirectories({ disk, root, pid, owner: this.#owner });
    if (this.#probedAt === -Infinity) this.refreshSpace();
    return this.#staleRemoved;
  }

  /** Directories of dead servers removed by {@linkcode Spool.housekeep} (empty before it). */
  get staleRemoved(): readonly string[] {
    return this.#staleRemoved ?? [];
  }

  /** Why output is not spooled, or null while it is. */
  get problem(): string | null {
    return this.#problem;
  }

  /** Bytes on disk in all segments. */
  get usedBytes(): number {
    return this.#usedBytes;
  }

  /** `max_spool_bytes`. */
  get maxStreamBytes(): number {
    return this.#options.maxStreamBytes;
  }

  /** The total in force: `max_spool_total_bytes`, or less when the disk is short of space. */
  get allowedBytes(): number {
    const { maxTotalBytes, freeMarginBytes } = this.#options;
    const space = this.#space;
    if (space === null) return maxTotalBytes;
    const margin = freeMarginBytes ?? Math.min(MAX_FREE_MARGIN_BYTES, space.totalBytes / 10);
    const byDisk = space.usedBytes + space.availableBytes - margin;
    return Math.max(0, Math.min(maxTotalBytes, Math.floor(byDisk)));
  }

  /** The spool of one new execution (its directory is made when it first writes). */
  forExecution(): ExecutionSpool {
    // Deferred housekeeping has not measured the disk yet: the first execution does.
    if (this.#probedAt === -Infinity) void this.refreshSpace();
    const name = String(this.#nextExecution++);
    const directory = this.directory === null || this.#closed
      ? null
      : this.#options.disk.join(this.directory, name);
    return new ExecutionSpool(this, directory);
  }

  /** Measures the free space of the spool's file system again. */
  refreshSpace(): Promise<void> {
    const directory = this.directory;
    if (directory === null || this.#closed) return Promise.resolve();
    this.#probe ??= (async () => {
      const usedBytes = this.#usedBytes;
      this.#writtenSinceProbe = 0;
      this.#probedAt = performance.now();
      try {
        const space = await this.#options.disk.space(directory);
        if (space !== null) this.#space = { ...space, usedBytes };
      } catch {
        // Unknown space leaves the configured total in force; a full disk still degrades.
      } finally {
        this.#probe = null;
      }
    })();
    return this.#probe;
  }

  /** Deletes this server's directory; later executions keep output in memory. Idempotent. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#problem ??= "The server is shutting down";
      for (const file of this.#files.values()) closeQuietly(file);
      this.#files.clear();
      if (this.directory !== null) removeQuietly(this.#options.disk, this.directory);
    }
    await this.#probe;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** @internal The sizes stream spools are made with. */
  get streamSizes(): {
    segmentBytes: number;
    checkpointBytes?: number;
    stagingBytes?: number;
    blockBytes?: number;
  } {
    const { checkpointBytes, stagingBytes, blockBytes } = this.#options;
    return { segmentBytes: this.#segmentBytes, checkpointBytes, stagingBytes, blockBytes };
  }

  /** @internal */
  get disk(): SpoolDisk {
    return this.#options.disk;
  }

  /** @internal */
  get isClosed(): boolean {
    return this.#closed;
  }

  /** @internal Takes a new segment into the total. */
  register(segment: SpoolSegment): void {
    this.#queue.push(segment);
  }

  /** @internal */
  get totalCause(): "max_spool_total_bytes" | "free_space" {
    return this.allowedBytes < this.#options.maxTotalBytes ? "free_space" : "max_spool_total_bytes";
  }

  /** @internal Evicts the oldest segments until `bytes` more fit; false if they cannot. */
  admit(bytes: number): boolean {
    if (this.#closed) throw new Error("The spool is closed");
    const allowed = this.allowedBytes;
    while (this.#usedBytes + bytes > allowed) {
      const oldest = this.#oldest();
      if (oldest === null) return false;
      oldest.owner.evictForTotal(oldest, this.totalCause);
    }
    return true;
  }

  /** @internal */
  grew(bytes: number): void {
    this.#usedBytes += bytes;
    this.#writtenSinceProbe += bytes;
    const due = this.#writtenSinceProbe >= (this.#options.spaceProbeBytes ?? SPACE_PROBE_BYTES);
    if (due && performance.now() - this.#probedAt >= SPACE_PROBE_MIN_MS) this.refreshSpace();
  }

  /** @internal The open file of a segment, made at its first use. */
  fileOf(segment: SpoolSegment): SpoolFile {
    const files = this.#files;
    let file = files.get(segment);
    if (file !== undefined) {
      files.delete(segment);
      files.set(segment, file);
      return file;
    }
    if (segment.deleted) throw new Error(`Spool segment ${segment.path} was deleted`);
    const disk = this.#options.disk;
    file = segment.created ? disk.open(segment.path) : disk.create(segment.path);
    segment.created = true;
    files.set(segment, file);
    if (files.size > (this.#options.maxOpenFiles ?? MAX_OPEN_FILES)) {
      const [idle, idleFile] = files.entries().next().value!;
      files.delete(idle);
      closeQuietly(idleFile);
    }
    return file;
  }

  /** @internal The read buffer of streams named `name` (one page block). */
  scratch(name: string): Uint8Array {
    let buffer = this.#scratch.get(name);
    if (buffer === undefined) {
      buffer = new Uint8Array(this.#options.blockBytes ?? PAGE_BLOCK_BYTES);
      this.#scratch.set(name, buffer);
    }
    return buffer;
  }

  /** @internal Closes and deletes a segment's file. */
  release(segment: SpoolSegment): void {
    if (segment.deleted) return;
    segment.deleted = true;
    const file = this.#files.get(segment);
    if (file !== undefined) {
      this.#files.delete(segment);
      closeQuietly(file);
    }
    this.#usedBytes -= segment.fileBytes;
    if (segment.created) removeQuietly(this.#options.disk, segment.path);
  }

  #oldest(): SpoolSegment | null {
    const queue = this.#queue;
    while (this.#queueHead < queue.length && queue[this.#queueHead].deleted) this.#queueHead++;
    if (this.#queueHead > 1024 && this.#queueHead * 2 > queue.length) {
      this.#queue = queue.slice(this.#queueHead);
      this.#queueHead = 0;
    }
    return this.#queue[this.#queueHead] ?? null;
  }
}
