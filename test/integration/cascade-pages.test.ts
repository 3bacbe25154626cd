// `query<T> @cascade` of plain scalar fields is written straight from the stored columns (survivors
// picked by reading the required columns, then ordered and paged); everything else under @cascade is
// built as objects. Both are compared with a naive scan, and with each other: the same answer, the
// same touched_uids, and the general path's error when a non-null field lacks a value.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const schema = `type Note { id: ID!  slug: String! @id  text: String  rank: Int @search  tags: [String]  author: Person }
type Person { id: ID!  name: String! @id }`;

interface Row {
  slug: string;
  text?: string;
  rank?: number;
  tags?: string[];
}

// 60 notes: every 3rd without text, every 4th without rank, every 5th with no tags (an empty list).
const rows: Row[] = Array.from({ length: 60 }, (_, i) => ({
  slug: `s${String(i).padStart(2, '0')}`,
  ...(i % 3 === 0 ? {} : { text: `t${i % 7}` }),
  ...(i % 4 === 0 ? {} : { rank: (i * 37) % 11 }),
  tags: i % 5 === 0 ? [] : [`g${i % 2}`],
}));

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema);
  const added = await ask('mutation ($input: [AddNoteInput!]!) { addNote(input: $input) { numUids } }', { input: rows.map((r) => ({ ...r, author: { name: 'ann' } })) });
  // The notes and their one new author.
  expect(added['data']).toEqual({ addNote: { numUids: rows.length + 1 } });
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

async function ask(query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await postGraphql(server.url, { query, variables })).json() as Record<string, unknown>;
}

type Field = 'slug' | 'text' | 'rank' | 'tags';
const present = (row: Row, field: Field): boolean => row[field] !== undefined && !(Array.isArray(row[field]) && (row[field] as unknown[]).length === 0);

/** Rows with every `required` field, optionally `rank ge min`, ordered by rank (missing last, ties by insertion) or insertion, paged. */
function naive(select: readonly Field[], required: readonly Field[], options: { min?: number; desc?: boolean; ordered?: boolean; offset?: number; first?: number }): Record<string, unknown>[] {
  let kept = rows.map((row, i) => ({ row, i })).filter(({ row }) => required.every((f) => present(row, f)) && (options.min === undefined || (row.rank !== undefined && row.rank >= options.min)));
  if (options.ordered === true) {
    kept = kept.sort((a, b) => {
      if (a.row.rank === undefined || b.row.rank === undefined) return (a.row.rank === undefined ? 1 : 0) - (b.row.rank === undefined ? 1 : 0) || a.i - b.i;
      return (options.desc === true ? b.row.rank - a.row.rank : a.row.rank - b.row.rank) || a.i - b.i;
    });
  }
  const offset = options.offset ?? 0;
  return kept.slice(offset, options.first === undefined ? undefined : offset + options.first).map(({ row }) => Object.fromEntries(select.map((f) => [f, row[f] ?? (f === 'tags' ? [] : null)])));
}

describe('query<T> @cascade', () => {
  it('plain @cascade over scalars keeps the notes holding every selected field, ordered and paged after it', async () => {
    for (const [desc, offset, first] of [[false, 0, 5], [true, 3, 7], [false, 20, 10], [true, 0, 100]] as const) {
      const answer = await ask(`query ($o: Int, $f: Int) { queryNote(order: { ${desc ? 'desc' : 'asc'}: rank }, offset: $o, first: $f) @cascade { slug text rank tags } }`, { o: offset, f: first });
      expect(answer['data']).toEqual({ queryNote: naive(['slug', 'text', 'rank', 'tags'], ['slug', 'text', 'rank', 'tags'], { ordered: true, desc, offset, first }) });
    }
  });

  it('@cascade(fields:) requires only the listed fields; a filter narrows the candidates first', async () => {
    const answer = await ask('{ queryNote(filter: { rank: { ge: 5 } }, first: 8) @cascade(fields: ["text"]) { slug text rank } }');
    expect(answer['data']).toEqual({ queryNote: naive(['slug', 'text', 'rank'], ['text'], { min: 5, first: 8 }) });
  });

  it('answers and touched_uids equal the object-built path (a conditional field forces it)', async () => {
    const direct = await ask('{ queryNote(first: 6, offset: 2) @cascade { slug text } }');
    const built = await ask('{ queryNote(first: 6, offset: 2) @cascade { slug text @include(if: true) } }');
    expect(direct['data']).toEqual({ queryNote: naive(['slug', 'text'], ['slug', 'text'], { offset: 2, first: 6 }) });
    expect(direct).toEqual(built);
    // Every candidate is read: 60 notes × 2 fields.
    expect(direct['extensions']).toEqual({ touched_uids: 120 });
  });

  it('with an edge in the selection the objects are built, and the answer is the same', async () => {
    const answer = await ask('{ queryNote(first: 4) @cascade { slug text author { name } } }');
    expect(answer['data']).toEqual({ queryNote: naive(['slug', 'text'], ['slug', 'text'], { first: 4 }).map((n) => ({ ...n, author: { name: 'ann' } })) });
  });
});
