/** Synchronous fan-out of events to subscribers; a throwing subscriber does not stop the rest. */
export class EventHub<T> {
  #listeners = new Set<(event: T) => void>();

  /** Calls `listener` for every later event; returns the function that unsubscribes. */
  subscribe(listener: (event: T) => void): () => void {
    // A wrapper per subscription, so subscribing one function twice gives two subscriptions.
    const entry = (event: T) => listener(event);
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  /** Subscribers right now. */
  get size(): number {
    return this.#listeners.size;
  }

  emit(event: T): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A broken session's push must not stop another session's, nor the execution.
      }
    }
  }
}
