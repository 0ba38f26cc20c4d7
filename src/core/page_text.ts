/** The text of one stream of a page, decoded part by part. */
export class PageText {
  // ignoreBOM keeps a BOM in the text, as it occupies positions.
  #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  #text = "";

  /** Decodes `bytes`, keeping a character split at their end for the next part. */
  add(bytes: Uint8Array): void {
    this.#text += this.#decoder.decode(bytes, { stream: true });
  }

  /** The whole text decoded so far. */
  finish(): string {
    return this.#text + this.#decoder.decode();
  }
}
