// DateTime values are answered as Dgraph answers them, over HTTP against the real server: Dgraph
// parses a written DateTime into a time and answers it with Go's time.MarshalJSON (RFC 3339 with
// nanoseconds, query/outputnode.go marshalTimeJson), so `2000-01-01` reads back as
// `2000-01-01T00:00:00Z` (Dgraph's e2e query.go expects `"dob":"1988-01-01T00:00:00Z"` for the seed
// `"Author.dob": "1988-01-01"`). Filters and `remove` still match the value in any layout.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

const schema = `type Event { name: String! @id  at: DateTime @search }`;
let server: ServerProcess;

const gql = (query: string): Promise<{ data?: any; errors?: unknown[] }> => askWithoutExtensions(server.url, query);

beforeAll(async () => {
  server = await startWithSchema(schema);
});
afterAll(async () => {
  await server.stop();
});

describe('DateTime answers', () => {
  it('every accepted layout reads back in RFC 3339 as Dgraph writes it', async () => {
    const written = await gql(`mutation { addEvent(input: [
      { name: "day", at: "2000-01-01" }, { name: "month", at: "2000-02" }, { name: "year", at: "1999" },
      { name: "offset", at: "2010-01-01T05:04:33+05:30" }, { name: "zero", at: "2001-02-03T04:05:06+00:00" },
      { name: "fraction", at: "2001-02-03T04:05:06.500Z" }, { name: "nanos", at: "2001-02-03T04:05:06.123456789Z" },
      { name: "local", at: "2001-02-03T04:05:06" }
    ]) { event(order: { asc: name }) { name at } } }`);
    const expected = [
      { name: 'day', at: '2000-01-01T00:00:00Z' },
      { name: 'fraction', at: '2001-02-03T04:05:06.5Z' },
      { name: 'local', at: '2001-02-03T04:05:06Z' },
      { name: 'month', at: '2000-02-01T00:00:00Z' },
      { name: 'nanos', at: '2001-02-03T04:05:06.123456789Z' },
      { name: 'offset', at: '2010-01-01T05:04:33+05:30' },
      { name: 'year', at: '1999-01-01T00:00:00Z' },
      { name: 'zero', at: '2001-02-03T04:05:06Z' },
    ];
    expect(written).toEqual({ data: { addEvent: { event: expected } } });
    expect(await gql(`{ queryEvent(order: { asc: name }) { name at } }`)).toEqual({ data: { queryEvent: expected } });
    expect(await gql(`{ aggregateEvent { atMin atMax } }`)).toEqual({
      data: { aggregateEvent: { atMin: '1999-01-01T00:00:00Z', atMax: '2010-01-01T05:04:33+05:30' } },
    });
  });

  it('filters and remove match the value written in another layout', async () => {
    expect(await gql(`{ queryEvent(filter: { at: { eq: "2000-01-01T00:00:00+00:00" } }) { name } }`)).toEqual({ data: { queryEvent: [{ name: 'day' }] } });
    const removed = await gql(`mutation { updateEvent(input: { filter: { name: { eq: "day" } }, remove: { at: "2000-01-01" } }) { event { name at } } }`);
    expect(removed).toEqual({ data: { updateEvent: { event: [{ name: 'day', at: null }] } } });
  });
});
