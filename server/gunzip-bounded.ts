// Streams gzip input through zlib and stops as soon as the output passes a byte cap, so a gzip bomb
// costs at most `maxBytes` of memory and the time to inflate them.

import { createGunzip, type Gunzip } from 'node:zlib';
import type { HttpError } from './http-error.js';
import { refusals } from './responses.js';

export class BoundedGunzip {
  readonly #gunzip: Gunzip = createGunzip();
  readonly #chunks: Buffer[] = [];
  #size = 0;
  #done = false;
  readonly result: Promise<Buffer>;
  #resolve!: (body: Buffer) => void;
  #reject!: (error: HttpError) => void;

  constructor(private readonly maxBytes: number) {
    this.result = new Promise<Buffer>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.result.catch(() => undefined);
    this.#gunzip.on('data', (chunk: Buffer) => this.#take(chunk));
    this.#gunzip.on('error', (error: Error) => this.fail(refusals.badGzip(error.message)));
    this.#gunzip.on('end', () => this.#finish());
  }

  /** Feeds compressed bytes; returns false when the caller should wait for `onDrain`. */
  write(chunk: Buffer): boolean {
    if (this.#done) return true;
    return this.#gunzip.write(chunk);
  }

  onDrain(listener: () => void): void {
    this.#gunzip.on('drain', listener);
  }

  end(): void {
    if (!this.#done) this.#gunzip.end();
  }

  fail(error: HttpError): void {
    if (this.#done) return;
    this.#done = true;
    this.#chunks.length = 0;
    this.#gunzip.destroy();
    this.#reject(error);
  }

  #take(chunk: Buffer): void {
    if (this.#done) return;
    this.#size += chunk.length;
    if (this.#size > this.maxBytes) {
      this.fail(refusals.tooLargeDecompressed(this.maxBytes));
      return;
    }
    this.#chunks.push(chunk);
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#resolve(Buffer.concat(this.#chunks, this.#size));
  }
}
