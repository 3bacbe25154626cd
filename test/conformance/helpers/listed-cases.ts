// One test per corpus case under unsupported.ts: an unlisted case must conform, a listed one must
// still not (a throw counts as not conforming), and the list may name no case the corpus lacks.

import { expect, it } from 'vitest';

export interface ListedTally {
  passed: number;
  listed: number;
  total: number;
}

/** `run` resolves to what is wrong with the case's answer, or undefined when it conforms. */
export function listedCases<C extends { readonly name: string }>(
  cases: readonly C[],
  listed: Readonly<Record<string, string>>,
  tally: ListedTally,
  run: (c: C) => Promise<string | undefined>,
): void {
  for (const c of cases) {
    const reason = listed[c.name];
    it(reason === undefined ? c.name : `${c.name} [unsupported: ${reason}]`, async () => {
      tally.total++;
      let failure: string | undefined;
      try {
        failure = await run(c);
      } catch (error) {
        if (reason === undefined) throw error;
        failure = String(error);
      }
      if (reason === undefined) {
        expect(failure).toBeUndefined();
        tally.passed++;
      } else {
        expect(failure, `listed as unsupported (${reason}) but passes: remove it from unsupported.ts`).toBeDefined();
        tally.listed++;
      }
    });
  }
  it('lists no case the corpus lacks', () => expect(Object.keys(listed).filter((name) => !cases.some((c) => c.name === name))).toEqual([]));
}
