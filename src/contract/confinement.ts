/**
 * What the OS sandbox of one execution must open, in paths: policy's `confine()` computes it, the
 * core carries it to the spawn, and the platform's builders (bubblewrap, sandbox-exec) turn it
 * into their own terms. Every path is absolute and resolved (symlinks followed).
 */
export interface Confinement {
  /** The execution's working directory (the checked one: the command must start exactly there). */
  cwd: string;
  /** Whether the execution shares the host network. */
  network: boolean;
  /** Directories the execution may write (besides its private /tmp). */
  writable: readonly string[];
  /** Directories that stay visible read-only even where the sandbox hides their parent (/tmp). */
  visible: readonly string[];
}
