// Request ids: a client's id is kept only when short and plain; anything else gets a generated one,
// `<per-process prefix>-<base 36 counter>`, each its own.

import { describe, expect, it } from 'vitest';
import { nextRequestId, requestIdFor } from '../../../server/request-id.js';

const generated = /^[0-9a-z]{6}-[0-9a-z]+$/;

describe('request ids', () => {
  it('generated ones share the process prefix and never repeat', () => {
    const ids = Array.from({ length: 50 }, () => nextRequestId());
    for (const id of ids) expect(id).toMatch(generated);
    expect(new Set(ids.map((id) => id.slice(0, 6))).size).toBe(1);
    expect(new Set(ids).size).toBe(50);
  });

  it("a client's id is kept when 1 to 128 characters of letters, digits and _.:/+=@-; anything else is replaced", () => {
    for (const kept of ['a', 'A-z_0.9:/+=@', '3f2b8c1e-4d5a-4e6f-9a7b-0c1d2e3f4a5b', 'x'.repeat(128)]) expect(requestIdFor(kept)).toBe(kept);
    for (const refused of [undefined, '', 'x'.repeat(129), 'a b', 'a\r\nb', 'a\nb', 'a"b', '<a>', 'a;b', 'a,b', 'caf\u00e9', 'a\tb', 'a%0d']) {
      expect([refused, requestIdFor(refused)]).toEqual([refused, expect.stringMatching(generated)]);
    }
  });
});
