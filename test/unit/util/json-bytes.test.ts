import { describe, expect, it } from 'vitest';
import { ByteLimitExceeded, JsonBytes } from '../../../engine/util/json-bytes.js';
import { GraphStore } from '../../../engine/store/graph-store.js';

const written = (write: (out: JsonBytes) => void): string => {
  const out = new JsonBytes();
  write(out);
  return out.finish().toString('latin1');
};

describe('JsonBytes', () => {
  it('writes numbers as JSON.stringify does, small integers included', () => {
    const values = [0, -0, 1, -1, 9, 10, 99, 100, 12345, -67890, 2 ** 31 - 1, -(2 ** 31), -(2 ** 31) + 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1.5, -0.25, 1e21, 1e-7, NaN, Infinity, -Infinity];
    for (let i = 0; i < 2000; i++) values.push(Math.round((Math.random() - 0.5) * 2 ** (i % 40)));
    for (const value of values) expect(written((out) => out.number(value))).toBe(JSON.stringify(value));
  });

  it('writes decimals (coordinates, ratings, averages) as JSON.stringify does, near every boundary of the digit-by-digit path', () => {
    const values = [0.1, 0.2, 0.3, 0.7, 1.1, 0.000001, 0.0000015, 0.00001, 999999.999999, 999999.9999999, 1e6 + 0.5, -1e6 + 0.5, 123.456, -47.0001, 52.2297, 21.0122, 0.1 + 0.2, 1 / 3, 2 / 3, Math.PI, 5e-7, 9.999999e-7, 4.35, 1.005, 8.675];
    for (let i = 0; i < 20000; i++) {
      const d = i % 9;
      const int = Math.round((Math.random() - 0.5) * 2 * 10 ** (i % 8));
      values.push(int / 10 ** d, (int + Math.random()) / 10 ** d, Math.random() * 10 ** ((i % 13) - 6));
    }
    for (const value of values) expect(written((out) => out.number(value))).toBe(JSON.stringify(value));
  });

  it('writes a uid in GraphStore.uidOf form, quoted', () => {
    const ids = [0, 1, 9, 10, 15, 16, 255, 256, 4095, 4096, 123456789, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER];
    for (const id of ids) expect(written((out) => out.quotedHex(id))).toBe(`"${GraphStore.uidOf(id)}"`);
  });

  it('finish copies out the bytes written so far (the writer is reused)', () => {
    const out = new JsonBytes();
    out.ascii('{"a":1}');
    const first = out.finish();
    out.reset();
    out.ascii('[2]');
    expect([first.toString(), out.finish().toString()]).toEqual(['{"a":1}', '[2]']);
  });

  it('answers handed out stay intact while later ones fill the slab and move to a new one', () => {
    const out = new JsonBytes();
    const answers: Buffer[] = [];
    for (let i = 0; i < 3000; i++) {
      out.reset();
      out.ascii(`{"n":${i},"pad":"`);
      out.ascii('x'.repeat(i % 97));
      out.ascii('",');
      // Every writer, so that each of them at some point moves an answer to a new slab.
      out.json(`"j":${JSON.stringify('é'.repeat(i % 13))},"s":`);
      out.string('y'.repeat(i % 7));
      out.byte(0x2c);
      out.quotedHex(i);
      out.byte(0x2c);
      out.number(-i);
      out.ascii('}');
      answers.push(out.finish());
      out.release();
    }
    answers.forEach((answer, i) =>
      expect(answer.toString()).toBe(`{"n":${i},"pad":"${'x'.repeat(i % 97)}","j":"${'é'.repeat(i % 13)}","s":"${'y'.repeat(i % 7)}","0x${i.toString(16)}",${-i}}`),
    );
  });

  it('the size limit counts the answer being written only', () => {
    const out = new JsonBytes();
    out.ascii('y'.repeat(30));
    out.finish();
    out.reset();
    out.limit = 40;
    out.ascii('z'.repeat(35));
    expect(out.length).toBe(35);
    expect(() => out.ascii('z'.repeat(10))).toThrow(new ByteLimitExceeded(45));
    out.release();
    out.reset();
    out.ascii('ok');
    expect(out.finish().toString()).toBe('ok');
  });
});
