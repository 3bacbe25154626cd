// The codec must not keep what it decoded: msgpackr holds the last buffer it read until the next read,
// which after a restart was the whole snapshot body (359-528 MB at 1M) for as long as no log record came.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { decode, encode } from '../../../engine/persist/msgpack-codec.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

it('a decoded buffer is not kept by the codec', async () => {
  let bytes: Uint8Array | undefined = new Uint8Array(encode({ ids: new Int32Array(1 << 16), text: 'x'.repeat(1 << 16) }));
  const held = new WeakRef(bytes.buffer);
  expect((decode(bytes) as { ids: Int32Array }).ids.length).toBe(1 << 16);
  bytes = undefined;
  await new Promise((resolve) => setImmediate(resolve)); // a WeakRef's target is kept to the end of the turn
  gc();
  expect(held.deref()).toBeUndefined();
});
