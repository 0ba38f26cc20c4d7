/** Who is calling and how to reach them while the call blocks. */
export interface CallContext {
  /** Session id; executions are visible only to the session that started them. */
  owner: string;
  /** Aborted when the client cancels the request. */
  signal?: AbortSignal;
  /** Present when the request carried a progress token. */
  onProgress?: (progress: number, message: string) => void;
}
