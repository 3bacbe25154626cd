// What a graph-traversal `@auth` add rule costs an add (issue #14): two types with the same fields and
// data, one with the add rule `owner eq $USER` (checked on the new node after the writes), the same
// one-node add on both under one token, in alternating rounds in one process. Variables keep the
// document the same (prepared once), so the difference is the mutation's own work.
// Run: taskset -c 0 node dist/bench/micro/auth-add-cost.js [--docs 10000] [--owners 100]

import { ruledEngine, userToken } from './auth-fixture.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const docs = flag('--docs', 10_000);
const owners = flag('--owners', 100);
const rounds = 8;
const opsPerRound = 2_000;

async function main(): Promise<void> {
  const engine = await ruledEngine('add', 'id: ID! title: String @search(by: [hash]) owner: String @search(by: [hash])');
  const token = await userToken('u7');
  const headers = { 'x-auth': token };
  const add = async (type: string, input: unknown): Promise<string> => {
    const r = await engine.execute({ method: 'POST', query: `mutation ($in: [Add${type}Input!]!) { add${type}(input: $in) { numUids } }`, variables: { in: input }, headers });
    return 'body' in r ? Buffer.from(r.body as string | Uint8Array).toString() : '';
  };
  // The data, loaded under a token the rule lets through (each node's owner is its loader's $USER).
  for (const type of ['Ruled', 'Free']) {
    for (let owner = 0; owner < owners; owner++) {
      const own = await userToken(`u${owner}`);
      const input = Array.from({ length: docs / owners }, (_, i) => ({ title: `t${owner}-${i}`, owner: `u${owner}` }));
      const r = await engine.execute({ method: 'POST', query: `mutation ($in: [Add${type}Input!]!) { add${type}(input: $in) { numUids } }`, variables: { in: input }, headers: { 'x-auth': own } });
      if (!('body' in r) || !String(r.body).includes(`"numUids":${docs / owners}`)) throw new Error('load failed');
    }
  }
  let n = 0;
  const time = async (type: string): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < opsPerRound; i++) {
      const body = await add(type, [{ title: `new${n++}`, owner: 'u7' }]);
      if (!body.includes('"numUids":1')) throw new Error(body);
    }
    return Number(process.hrtime.bigint() - start) / 1000 / opsPerRound;
  };
  await time('Free');
  await time('Ruled');
  const results: Record<string, number[]> = { Free: [], Ruled: [] };
  for (let round = 0; round < rounds; round++) {
    for (const type of round % 2 === 0 ? ['Free', 'Ruled'] : ['Ruled', 'Free']) results[type]?.push(await time(type));
  }
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
  const [f, r] = [median(results['Free'] ?? []), median(results['Ruled'] ?? [])];
  console.log(`docs ${docs}, owners ${owners}: µs per one-node add, median of ${rounds} rounds × ${opsPerRound}`);
  console.log(`without rule ${f.toFixed(1)}  with the add rule ${r.toFixed(1)} (${(r / f).toFixed(2)}x)`);
  await engine.close();
}

await main();
