// Tables of requests answered by exactly one error: each case asserts the whole answer (status 200,
// the message and its locations, nothing else) over HTTP.

import { expect, it } from 'vitest';
import { postGraphql } from './http.js';

export type ErrorCase = readonly [what: string, query: string, message: string, locations: readonly { line: number; column: number }[]];

/** The whole answer to `query` (status 200 asserted). */
export async function answerTo(url: string, query: string): Promise<unknown> {
  const answer = await postGraphql(url, { query });
  expect(answer.status).toBe(200);
  return answer.json();
}

/** One test per case; `url` is read when the test runs (the server starts in beforeAll). */
export function itAnswersOneError(url: () => string, cases: readonly ErrorCase[]): void {
  for (const [what, query, message, locations] of cases) {
    it(what, async () => {
      expect(await answerTo(url(), query)).toEqual({ errors: [{ message, locations }] });
    });
  }
}
