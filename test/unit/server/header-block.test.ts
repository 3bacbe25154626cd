import { describe, expect, it } from 'vitest';
import { headerBlock } from '../../../server/exchange.js';

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

describe('headerBlock', () => {
  it('writes the first name, then its value followed by the other header lines', () => {
    const block = headerBlock({ 'Content-Type': 'application/json', Vary: 'Accept-Encoding', Allow: 'POST' });
    expect(block).not.toBeNull();
    expect(text(block?.name ?? new Uint8Array())).toBe('Content-Type');
    expect(text(block?.value ?? new Uint8Array())).toBe('application/json\r\nVary: Accept-Encoding\r\nAllow: POST');
  });

  it('encodes a headers object once', () => {
    const headers = { A: '1', B: '2' };
    expect(headerBlock(headers)).toBe(headerBlock(headers));
  });

  it('is null for no headers', () => {
    expect(headerBlock({})).toBeNull();
  });

  it('refuses a line break in a name or a value (it would start a header of its own)', () => {
    expect(() => headerBlock({ A: 'x\r\nSet-Cookie: y' })).toThrow(/line break/);
    expect(() => headerBlock({ 'A\nB': 'x' })).toThrow(/line break/);
    // Written as Latin-1, U+010D U+010A would become the bytes CR LF.
    expect(() => headerBlock({ A: 'x\u010d\u010aSet-Cookie: y' })).toThrow(/line break/);
  });
});
