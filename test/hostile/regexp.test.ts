// Issue #19 item 3: regexp filters run on a linear-time (RE2-class) matcher. A pattern that makes a
// backtracking engine explode on one short value (`/aaa(a+)+$/` against 33 `a`s and a `!` blocked
// V8's RegExp for ~27 s) is answered at once, and a simple query sent beside it never waits.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from '../integration/helpers/http.js';
import { type ServerProcess, startWithSchema } from '../integration/helpers/server-process.js';
import { underWatch } from './helpers/watchdog.js';

let server: ServerProcess;

const schema = `type Word { id: ID!  text: String @search(by: [regexp]) }`;
const evil = `${'a'.repeat(33)}!`;

async function gql(query: string): Promise<unknown> {
  const answer = await postGraphql(server.url, { query });
  expect(answer.status).toBe(200);
  return answer.json();
}

beforeAll(async () => {
  server = await startWithSchema(schema);
  const added = await gql(`mutation { addWord(input: [{ text: "${evil}" }, { text: "${'a'.repeat(40)}" }, { text: "banana" }]) { numUids } }`);
  expect(added).toMatchObject({ data: { addWord: { numUids: 3 } } });
  // Warm the matcher (its first use in a process pays JIT compilation, not the attack's cost).
  expect(await gql(`{ queryWord(filter: { text: { regexp: "/an(an)+/" } }) { text } }`)).toEqual({ data: { queryWord: [{ text: 'banana' }] }, extensions: { touched_uids: 1 } });
});

afterAll(async () => {
  await server?.stop();
});

describe('regexp filters against catastrophic backtracking', () => {
  it('answers /aaa(a+)+$/ at once while a watchdog query is answered within 100 ms', async () => {
    const { result, report } = await underWatch(server.url, async () => {
      const started = performance.now();
      const answers = await Promise.all(
        [0, 1, 2].map(() => gql(`{ queryWord(filter: { text: { regexp: "/aaa(a+)+$/" } }, order: { asc: text }) { text } }`)),
      );
      return { answers, ms: performance.now() - started };
    });
    for (const answer of result.answers) expect(answer).toEqual({ data: { queryWord: [{ text: 'a'.repeat(40) }] }, extensions: { touched_uids: 1 } });
    expect(result.ms).toBeLessThan(1000);
    expect(report.wrong).toEqual([]);
    expect(report.answered).toBeGreaterThan(0);
    expect(report.worstMs).toBeLessThan(100);
  });

  it('answers nested quantifiers and long alternations the same way (no trigram needed, values scanned)', async () => {
    const { result, report } = await underWatch(server.url, () =>
      gql(`{ queryWord(filter: { text: { regexp: "/^(a|a)*(a|aa)*$/" } }, order: { asc: text }) { text } }`),
    );
    expect(result).toEqual({ data: { queryWord: [{ text: 'a'.repeat(40) }] }, extensions: { touched_uids: 1 } });
    expect(report.wrong).toEqual([]);
    expect(report.worstMs).toBeLessThan(100);
  });
});
