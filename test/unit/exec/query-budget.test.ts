// The budget a query runs under, in process: the answer-size cap on the direct writer (JsonBytes.limit)
// and on answers built as objects (lower bound while reading, exact size once serialized), the deadline,
// the cost refusal, and mutations left unbounded.

import { describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';
import { BudgetExceeded, QueryBudget } from '../../../engine/exec/query-budget.js';
import { ByteLimitExceeded, JsonBytes } from '../../../engine/util/json-bytes.js';

const sizeMessage = (bytes: number, max: number): string =>
  `Dgraph query failed because Dgraph execution failed because estimated response size: ${bytes} is bigger than threshold: ${max} (--max-result-bytes)`;

async function engineWith(budget: { maxQueryCost?: number; maxResultBytes?: number; queryTimeoutMs?: number }): Promise<Engine> {
  const engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false, budget });
  const deployed = await engine.updateSchema('type Item { id: ID!  name: String! @search(by: [hash])  next: [Item] }');
  if (!deployed.ok) throw new Error(JSON.stringify(deployed.errors));
  return engine;
}

async function run(engine: Engine, query: string, variables: Record<string, unknown> = {}): Promise<{ kind: string; body: unknown }> {
  const response = await engine.execute({ method: 'POST', query, variables, headers: {} });
  return { kind: response.kind, body: JSON.parse(response.body) as unknown };
}

const long = (i: number): string => `${String(i).padStart(4, '0')}${'x'.repeat(996)}`;

describe('JsonBytes.limit', () => {
  it('throws at the write that would cross it, with the size it would have reached, and never grows past it', () => {
    const out = new JsonBytes();
    out.limit = 20_000;
    out.ascii('x'.repeat(19_990));
    expect(() => out.ascii('y'.repeat(11))).toThrow(new ByteLimitExceeded(20_001));
    expect(out.length).toBe(19_990);
    out.ascii('z'.repeat(10));
    expect(out.finish().length).toBe(20_000);
  });
});

describe('QueryBudget', () => {
  it('throws the timeout error at the first check past the deadline, checking every 4,096 units', () => {
    const budget = new QueryBudget({ maxQueryCost: 0, maxResultBytes: Infinity, queryTimeoutMs: 1 });
    const until = performance.now() + 3;
    while (performance.now() < until); // past the deadline, but nothing has checked
    for (let i = 0; i < 4_095; i++) budget.spend(1);
    expect(() => budget.spend(1)).toThrow(
      new BudgetExceeded('Dgraph query failed because Dgraph execution failed because context deadline exceeded (query timeout 1 ms, --query-timeout-ms)'),
    );
  });

  it('counts a lower bound of the objects built: {} and "k":v, per field', () => {
    const budget = new QueryBudget({ maxQueryCost: 0, maxResultBytes: 1_000, queryTimeoutMs: 0 });
    for (let i = 0; i < 99; i++) budget.object(1); // 99 × 7 bytes
    expect(() => budget.check()).not.toThrow();
    for (let i = 0; i < 99; i++) budget.object(1);
    expect(() => budget.check()).toThrow(new BudgetExceeded(sizeMessage(1_386, 1_000)));
  });
});

describe('bounded queries in an engine', () => {
  it('fails a directly written answer over the cap with one error at its root field, and no data', async () => {
    const engine = await engineWith({ maxResultBytes: 4_096 });
    await run(engine, 'mutation ($in: [AddItemInput!]!) { addItem(input: $in) { numUids } }', { in: Array.from({ length: 8 }, (_, i) => ({ name: long(i) })) });
    // 4 names fit (4 × ~1,010 bytes); the fifth would cross 4,096.
    expect(await run(engine, '{ small: queryItem(first: 3) { name } }')).toMatchObject({ kind: 'ok', body: { data: { small: [{}, {}, {}] } } });
    const answer = await run(engine, '{ items: queryItem { name } }');
    expect(answer.kind).toBe('ok');
    const size = Number(/size: (\d+) is/.exec(JSON.stringify(answer.body))?.[1]);
    expect(size).toBeGreaterThan(4_096);
    expect(size).toBeLessThan(4_096 + 3_100); // the reservation of one 1,000-character value
    expect(answer.body).toEqual({ errors: [{ message: sizeMessage(size, 4_096), locations: [{ line: 1, column: 3 }], path: ['items'] }], data: null });
    await engine.close();
  });

  it('fails an answer built as objects by its exact serialized size (long values pass the lower bound)', async () => {
    const engine = await engineWith({ maxResultBytes: 4_096 });
    await run(engine, 'mutation ($in: [AddItemInput!]!) { addItem(input: $in) { numUids } }', { in: Array.from({ length: 8 }, (_, i) => ({ name: long(i) })) });
    // @cascade over a conditional field: built as objects (a plain @cascade of scalars is written directly).
    const answer = await run(engine, '{ a: queryItem(first: 1) { id } items: queryItem @cascade { name @include(if: true) } }');
    // {"data":{"a":[{"id":"0x1"}],"items":[8 × {"name":"<1,000>"}]},"extensions":{"touched_uids":9}}
    const bytes = '{"data":{"a":[{"id":"0x1"}],"items":[]},"extensions":{"touched_uids":9}}'.length + 8 * '{"name":""}'.length + 7 + 8 * 1_000;
    expect(answer).toEqual({
      kind: 'ok',
      body: { errors: [{ message: sizeMessage(bytes, 4_096), locations: [{ line: 1, column: 33 }], path: ['items'] }], data: null },
    });
    await engine.close();
  });

  it('refuses a query whose estimated cost is over the limit, before running it, as a request error', async () => {
    const engine = await engineWith({ maxQueryCost: 100 });
    const ids = await run(engine, 'mutation ($in: [AddItemInput!]!) { addItem(input: $in) { item { id } } }', {
      in: Array.from({ length: 20 }, (_, i) => ({ name: `n${i}` })),
    });
    const refs = (ids.body as { data: { addItem: { item: { id: string }[] } } }).data.addItem.item.map(({ id }) => ({ id }));
    await run(engine, 'mutation ($refs: [ItemRef]) { updateItem(input: { filter: {}, set: { next: $refs } }) { numUids } }', { refs });
    // 20 + 20×20 = 420 > 100; with first: 2, 2 + 2×20 = 42 runs.
    expect(await run(engine, '{ queryItem { next { name } } }')).toEqual({
      kind: 'request-error',
      body: { errors: [{ message: "The query's estimated cost of 420 nodes exceeds the maximum of 100 (--max-query-cost).", locations: [{ line: 1, column: 3 }] }] },
    });
    expect(await run(engine, '{ queryItem(first: 2) { next(first: 1) { name } } }')).toMatchObject({ kind: 'ok', body: { data: { queryItem: [{}, {}] } } });
    // Over the cheap bound (20 + 20×20), but the hash index says the filter matches one node: 1 + 20 runs.
    expect(await run(engine, '{ queryItem(filter: { name: { eq: "n3" } }) { name next { name } } }')).toEqual({
      kind: 'ok',
      body: { data: { queryItem: [{ name: 'n3', next: Array.from({ length: 20 }, (_, i) => ({ name: `n${i}` })) }] }, extensions: { touched_uids: 22 } },
    });
    await engine.close();
  });

  it('leaves mutations unbounded (their answers come after the commit)', async () => {
    const engine = await engineWith({ maxResultBytes: 1_024, maxQueryCost: 1 });
    const answer = await run(engine, 'mutation ($in: [AddItemInput!]!) { addItem(input: $in) { item { name } } }', { in: [{ name: long(1) }, { name: long(2) }] });
    expect(answer.kind).toBe('ok');
    expect((answer.body as { errors?: unknown }).errors).toBeUndefined();
    expect((answer.body as { data: unknown }).data).toEqual({ addItem: { item: [{ name: long(1) }, { name: long(2) }] } });
    await engine.close();
  });
});
