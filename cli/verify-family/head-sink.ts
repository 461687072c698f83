import { Writable } from 'node:stream';

/** A sink that keeps the first `limit` bytes (for the container signature) and drops the rest. */
export class HeadSink extends Writable {
  readonly #chunks: Buffer[] = [];
  #kept = 0;

  constructor(readonly limit: number) {
    super();
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    if (this.#kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.#kept);
      this.#chunks.push(part);
      this.#kept += part.byteLength;
    }
    callback();
  }

  bytes(): Uint8Array {
    return Buffer.concat(this.#chunks);
  }
}
