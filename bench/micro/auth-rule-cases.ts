// What a graph-traversal `@auth` query rule costs (issue #14: at most 2x the same query without it):
// two types with the same fields and data, one with the rule `owner eq $USER`; the query on the ruled
// type and the same nodes asked by filter on the free one (answers checked equal first), in alternating
// rounds in one process. "one token": its allowed set is cached; "a new token each": a new claims
// object per request, so the rule is evaluated each time (both sides verify a new token).
// Run by run-micro.ts (part of `npm run bench`) at its first scale.

import { ruledEngine, userToken } from './auth-fixture.js';
import type { MicroResult } from './micro-cases.js';

const owners = 100;

/** The names of the four figures, in order: without the rule and with it, under one token and under a new token each. */
export const authRuleNames = ['auth rule: none, one token', 'auth rule: graph, one token', 'auth rule: none, new token each', 'auth rule: graph, new token each'] as const;

export async function authRuleCases(docs: number, rounds: number, opsPerRound = 500): Promise<MicroResult[]> {
  const engine = await ruledEngine('query', 'id: ID! title: String @search(by: [hash]) owner: String @search(by: [hash]) n: Int @search');
  try {
    const input = Array.from({ length: docs }, (_, i) => ({ title: `t${i}`, owner: `u${i % owners}`, n: (i * 7919) % docs }));
    for (const type of ['Ruled', 'Free']) {
      for (let i = 0; i < docs; i += 1000) {
        const r = await engine.execute({ method: 'POST', query: `mutation ($in: [Add${type}Input!]!) { add${type}(input: $in) { numUids } }`, variables: { in: input.slice(i, i + 1000) }, headers: {} });
        if (!('body' in r) || String(r.body).includes('"errors"')) throw new Error('auth rule micro: load failed');
      }
    }
    const token = await userToken('u7');
    // The query without a rule filters by owner itself: both answer the same ten nodes.
    const ruled = '{ queryRuled(first: 10, order: { asc: n }) { title n } }';
    const free = '{ queryFree(filter: { owner: { eq: "u7" } }, first: 10, order: { asc: n }) { title n } }';
    const ask = async (query: string, auth: string): Promise<string> => {
      const r = await engine.execute({ method: 'POST', query, headers: { 'x-auth': auth } });
      return 'body' in r ? Buffer.from(r.body as string | Uint8Array).toString() : '';
    };
    const a = (await ask(ruled, token)).replace(/Ruled/g, 'X');
    const b = (await ask(free, token)).replace(/Free/g, 'X');
    if (a !== b) throw new Error(`auth rule micro: answers differ:\n${a}\n${b}`);
    const time = async (query: string, tokens: (i: number) => string): Promise<number> => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < opsPerRound; i++) await ask(query, tokens(i));
      return Number(process.hrtime.bigint() - start) / 1000 / opsPerRound;
    };
    const fresh = (round: number, side: number): Promise<string[]> => Promise.all(Array.from({ length: opsPerRound }, (_, i) => userToken('u7', (2 * round + side) * opsPerRound + i + 1)));
    const times: number[][] = [[], [], [], []];
    for (let round = 0; round < rounds; round++) {
      times[0]?.push(await time(free, () => token));
      times[1]?.push(await time(ruled, () => token));
      // Fresh tokens each round: a new claims object, so the rule is evaluated per request.
      const [withRule, without] = [await fresh(round, 0), await fresh(round, 1)];
      times[3]?.push(await time(ruled, (i) => withRule[i] as string));
      times[2]?.push(await time(free, (i) => without[i] as string));
    }
    const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
    return authRuleNames.map((name, i) => ({ name, nodes: docs, usPerOp: median(times[i] ?? []), opsPerRound, rounds }));
  } finally {
    await engine.close();
  }
}
