// Plans are reused across requests of one cached document (engine/exec/query-plan-cache.ts: per field
// occurrence and argument shape; the shape is the document's when every variable holds a single
// scalar, so values such as `has` field names are read from each request when the plan runs). A reused plan must
// never be one made for other `first`/`offset`/`order` values or another filter shape: EXPLAIN shows
// each request's own page and filter, and answers equal those of a document seen for the first time.

import { beforeAll, describe, expect, it } from 'vitest';
import { openHarness, seed, type Harness } from './helpers/engine-harness.js';

const schemaPath = 'e2e/normal/schema.graphql';
const document =
  'query Q($t: String, $n: Int, $o: Int) { queryPost(filter: { title: { anyofterms: $t } }, order: { desc: numLikes }, first: $n, offset: $o) { title numLikes } }';

const requests: Record<string, unknown>[] = [
  { t: 'GraphQL', n: 2, o: 0 },
  { t: 'Learning', n: 2, o: 0 },
  { t: 'GraphQL', n: 1, o: 1 },
  { t: 'GraphQL', n: 1000, o: 0 },
  { t: null, n: 3, o: 0 },
  { n: 3 },
  { t: 'GraphQL Dgraph', n: 2, o: 0 },
  { t: 'GraphQL', n: 2, o: 0 },
];

describe('plan reuse across requests of one document', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness(schemaPath, { debug: true });
    await seed(h, schemaPath.replace('schema.graphql', 'test_data.json'));
  });

  it('each request gets the plan of its own variables', async () => {
    for (const [i, variables] of requests.entries()) {
      const reused = await h.gql(document, variables, { explain: true });
      const page = `page offset ${(variables['o'] as number | undefined) ?? 0} first ${variables['n'] as number}`;
      expect(reused.extensions?.explain, JSON.stringify(variables)).toContain(page);
      const filtered = typeof variables['t'] === 'string';
      expect(String(reused.extensions?.explain).includes('anyofterms'), JSON.stringify(variables)).toBe(filtered);
      // The same request as a new document text (a new cached document, so nothing reused), on both paths.
      const fresh = await h.gql(`${document} # ${i}`, variables);
      const direct = await h.gql(document, variables);
      expect(reused.data).toEqual(fresh.data);
      expect(direct.data).toEqual(fresh.data);
      expect(fresh.errors).toBeUndefined();
    }
  });

  it('an enum variable inside order: each request sorts by its own field', async () => {
    const byField = 'query Q($f: PostOrderable!, $n: Int) { queryPost(order: { asc: $f }, first: $n) { title numLikes } }';
    for (const [i, f] of ['numLikes', 'title', 'numLikes', 'title'].entries()) {
      const reused = await h.gql(byField, { f, n: 3 }, { explain: true });
      expect(reused.extensions?.explain).toContain(`order asc ${f}`);
      const fresh = await h.gql(`${byField} # ${i}`, { f, n: 3 });
      expect((await h.gql(byField, { f, n: 3 })).data).toEqual(fresh.data);
      expect(fresh.errors).toBeUndefined();
    }
  });

  it('a `has` variable: each request selects the nodes holding its own field', async () => {
    const byHas = 'query Q($f: PostHasFilter) { queryPost(filter: { has: [$f] }) { title } }';
    for (const [i, f] of ['topic', 'text', 'category', 'topic'].entries()) {
      const reused = await h.gql(byHas, { f }, { explain: true });
      expect(reused.extensions?.explain).toContain(`has ${f} [`);
      const fresh = await h.gql(`${byHas} # has ${i}`, { f });
      expect(reused.data).toEqual(fresh.data);
      expect(fresh.errors).toBeUndefined();
    }
    const counts = await Promise.all(['topic', 'text', 'category'].map(async (f) => ((await h.gql(byHas, { f })).data?.queryPost as unknown[]).length));
    expect(new Set(counts).size).toBeGreaterThan(1); // the fields differ in who holds them, so a stale plan would show
  });
});
