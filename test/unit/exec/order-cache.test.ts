// Ordered pages read from the order cache (exec/order-page.ts cachedOrderPrefix: a long list's whole
// order kept after a sort, next-power-of-two prefixes after a top-k miss) and the insertion sort of a
// few edge targets: every offset, ties (uid order), missing values (last), offsets past the end, and
// the answers after values are rewritten, nodes deleted and nodes added (the cache must not serve
// an order the column or the list no longer has).

import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';

const schema = `type Item {
  id: ID!
  name: String! @search(by: [hash])
  n: Int
  owner: Owner
}
type Owner {
  id: ID!
  label: String! @id
  items: [Item] @hasInverse(field: owner)
}`;

interface Row {
  id: string;
  name: string;
  n: number | null;
  owner: string;
}

let engine: Engine;
let rows: Row[] = [];

async function gql(query: string, variables?: Record<string, unknown>): Promise<any> {
  const response = await engine.execute({ method: 'POST', query, variables, headers: {} });
  const body = JSON.parse(response.body);
  expect(body.errors).toBeUndefined();
  return body.data;
}

const uid = (id: string): number => Number.parseInt(id, 16);

function naive(list: readonly Row[], key: 'name' | 'n', desc: boolean): Row[] {
  return [...list].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const c = x < y ? -1 : 1;
      return desc ? -c : c;
    }
    return uid(a.id) - uid(b.id);
  });
}

const pageQuery = (key: string, dir: string) => `query ($o: Int, $f: Int) { queryItem(order: { ${dir}: ${key} }, first: $f, offset: $o) { id } }`;

async function expectEveryPage(key: 'name' | 'n', desc: boolean, first: number): Promise<void> {
  const expected = naive(rows, key, desc).map((r) => r.id);
  for (let o = 0; o <= expected.length + 3; o += 7) {
    const data = await gql(pageQuery(key, desc ? 'desc' : 'asc'), { o, f: first });
    expect(data.queryItem.map((x: { id: string }) => x.id), `offset ${o}`).toEqual(expected.slice(o, o + first));
  }
}

beforeAll(async () => {
  engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false });
  expect((await engine.updateSchema(schema)).ok).toBe(true);
  const input = Array.from({ length: 400 }, (_, i) => ({
    name: `w${(i * 37) % 50}`,
    ...(i % 9 === 0 ? {} : { n: (i * 13) % 40 }),
    owner: { label: `o${i % 12}` },
  }));
  const added = await gql(`mutation ($input: [AddItemInput!]!) { addItem(input: $input) { item { id } } }`, { input });
  rows = input.map((r, i) => ({ id: added.addItem.item[i].id as string, name: r.name, n: r.n ?? null, owner: r.owner.label }));
});

describe('pages of a long list from the order cache', () => {
  it('every offset of a string order (no ordered index: sort, then slices) and of a number order (top-k prefixes)', async () => {
    await expectEveryPage('name', false, 5);
    await expectEveryPage('name', true, 5);
    await expectEveryPage('n', false, 3);
    await expectEveryPage('n', true, 150);
  });

  it('follows rewritten values, deleted and added nodes', async () => {
    await expectEveryPage('name', false, 5);
    const moved = rows.filter((_, i) => i % 10 === 3);
    await gql('mutation ($ids: [ID!]) { updateItem(input: { filter: { id: $ids }, set: { name: "a0", n: 100 } }) { numUids } }', { ids: moved.map((r) => r.id) });
    for (const r of moved) Object.assign(r, { name: 'a0', n: 100 });
    await expectEveryPage('name', false, 5);
    await expectEveryPage('n', true, 5);
    const gone = rows.filter((_, i) => i % 10 === 7);
    await gql('mutation ($ids: [ID!]) { deleteItem(filter: { id: $ids }) { numUids } }', { ids: gone.map((r) => r.id) });
    rows = rows.filter((r) => !gone.includes(r));
    await expectEveryPage('name', false, 5);
    const more = await gql('mutation { addItem(input: [{ name: "a1", owner: { label: "o1" } }]) { item { id } } }');
    rows.push({ id: more.addItem.item[0].id, name: 'a1', n: null, owner: 'o1' });
    await expectEveryPage('name', false, 5);
    await expectEveryPage('n', false, 5);
  });
});

describe('a few edge targets sorted by one number', () => {
  it('orders each owner’s items with ties by uid and missing values last, at any offset', async () => {
    const query = 'query ($o: Int) { queryOwner(order: { asc: label }) { label items(order: { desc: n }, first: 4, offset: $o) { id } } }';
    for (const o of [0, 2, 30, 40]) {
      const data = await gql(query, { o });
      for (const owner of data.queryOwner as { label: string; items: { id: string }[] }[]) {
        const expected = naive(rows.filter((r) => r.owner === owner.label), 'n', true).map((r) => r.id);
        expect(owner.items.map((x) => x.id), `${owner.label} offset ${o}`).toEqual(expected.slice(o, o + 4));
      }
    }
  });
});

describe('cachedOrderPrefix', () => {
  it('keeps a top-k miss up to the power of two above it, page ends just past 1,000 included', async () => {
    const { cachedOrderPrefix } = await import('../../../engine/exec/order-page.js');
    const column = { version: 0 } as unknown as Parameters<typeof cachedOrderPrefix>[2];
    const ids = Array.from({ length: 5_000 }, (_, i) => i);
    let computed = 0;
    const compute = (n: number): number[] => {
      computed++;
      return ids.slice(0, n);
    };
    expect(cachedOrderPrefix(ids, 1_004, column, false, compute)).toEqual(ids.slice(0, 1_004));
    expect(cachedOrderPrefix(ids, 1_004, column, false, compute)).toEqual(ids.slice(0, 1_004));
    expect(cachedOrderPrefix(ids, 600, column, false, compute)).toEqual(ids.slice(0, 600));
    expect(computed).toBe(1);
  });
});
