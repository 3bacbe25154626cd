// What a graph-traversal `@auth` query rule costs (issue #14: at most 2x the same query without it):
// two types with the same fields and data, one with the rule `owner eq $USER`; the same query on both,
// under one token, in alternating rounds in one process. "hot": one token (its allowed set cached);
// "a new token each": a new claims object per request, so the rule is evaluated each time (both sides
// verify a new token).
// Run: taskset -c 0 node dist/bench/micro/auth-rule-cost.js [--docs 10000] [--owners 100]

import { SignJWT } from 'jose';
import { Engine } from '../../engine/index.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const docs = flag('--docs', 10_000);
const owners = flag('--owners', 100);
const rounds = 12;
const opsPerRound = 500;

const secret = 'a-bench-secret-of-at-least-32-bytes!!';
const ns = 'https://example.com/claims';
const fields = 'id: ID! title: String @search(by: [hash]) owner: String @search(by: [hash]) n: Int @search';
const sdl = `type Ruled @auth(query: { rule: """query($USER: String!) { queryRuled(filter: { owner: { eq: $USER } }) { __typename } }""" }) { ${fields} }
type Free { ${fields} }
# Dgraph.Authorization ${JSON.stringify({ VerificationKey: secret, Header: 'X-Auth', Namespace: ns, Algo: 'HS256' })}
`;

const sign = (user: string, nonce = 0): Promise<string> => new SignJWT({ [ns]: { USER: user, nonce } }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));

async function main(): Promise<void> {
  const engine = await Engine.open({ dataDir: '', maxQueryTokens: 50000, maxQueryDepth: 200, debug: false });
  const deployed = await engine.updateSchema(sdl);
  if (!deployed.ok) throw new Error(JSON.stringify(deployed.errors));
  const input = Array.from({ length: docs }, (_, i) => ({ title: `t${i}`, owner: `u${i % owners}`, n: (i * 7919) % docs }));
  for (const type of ['Ruled', 'Free']) {
    for (let i = 0; i < docs; i += 1000) {
      const r = await engine.execute({ method: 'POST', query: `mutation ($in: [Add${type}Input!]!) { add${type}(input: $in) { numUids } }`, variables: { in: input.slice(i, i + 1000) }, headers: {} });
      if (!('body' in r) || String(r.body).includes('"errors"')) throw new Error('load failed');
    }
  }
  const token = await sign('u7');
  const cold = await Promise.all(Array.from({ length: opsPerRound }, (_, i) => sign('u7', i + 1)));
  // The query without a rule filters by owner itself: both answer the same ten nodes.
  const ruled = '{ queryRuled(first: 10, order: { asc: n }) { title n } }';
  const free = '{ queryFree(filter: { owner: { eq: "u7" } }, first: 10, order: { asc: n }) { title n } }';
  const ask = async (query: string, auth: string): Promise<string> => {
    const r = await engine.execute({ method: 'POST', query, headers: { 'x-auth': auth } });
    return 'body' in r ? Buffer.from(r.body as string | Uint8Array).toString() : '';
  };
  const a = (await ask(ruled, token)).replace(/Ruled/g, 'X');
  const b = (await ask(free, token)).replace(/Free/g, 'X');
  if (a !== b) throw new Error(`answers differ:\n${a}\n${b}`);
  const time = async (query: string, tokens: (i: number) => string): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < opsPerRound; i++) await ask(query, tokens(i));
    return Number(process.hrtime.bigint() - start) / 1000 / opsPerRound;
  };
  const results: Record<string, number[]> = { free: [], hot: [], freeCold: [], cold: [] };
  for (let round = 0; round < rounds; round++) {
    results['free']?.push(await time(free, () => token));
    results['hot']?.push(await time(ruled, () => token));
    // Fresh tokens each round: a new claims object, so the rule is evaluated per request.
    const fresh = round === 0 ? cold : await Promise.all(cold.map((_, i) => sign('u7', 2 * round * opsPerRound + i + 1)));
    results['cold']?.push(await time(ruled, (i) => fresh[i] as string));
    const other = await Promise.all(cold.map((_, i) => sign('u7', (2 * round + 1) * opsPerRound + i + 1)));
    results['freeCold']?.push(await time(free, (i) => other[i] as string));
  }
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
  const [f, h, fc, c] = [median(results['free'] ?? []), median(results['hot'] ?? []), median(results['freeCold'] ?? []), median(results['cold'] ?? [])];
  console.log(`docs ${docs}, owners ${owners} (${docs / owners} allowed): µs/request median of ${rounds} rounds × ${opsPerRound}`);
  console.log(`one token:        without rule ${f.toFixed(1)}  with rule ${h.toFixed(1)} (${(h / f).toFixed(2)}x)`);
  console.log(`a new token each: without rule ${fc.toFixed(1)}  with rule ${c.toFixed(1)} (${(c / fc).toFixed(2)}x)`);
}

await main();
