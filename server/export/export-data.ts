// The one exporter: every node as one NDJSON line in the shape of its `add` input plus "__typename".
// Nodes are numbered 0x1, 0x2, ... in file order (types by name, then by uid) and references by ID use
// those numbers, so that importing into an empty directory recreates the same ids and exporting again
// gives the same bytes. References to types without an ID field use their @id fields. Serves both the
// offline `npm run export` (../cli/export.ts) and the running server's /admin `export` (../admin-host.ts).

import { parseKeepingBigInts, readShapes, type FieldShape, type Reader, type TypeShape } from './data-shape.js';

const page = 20_000;

/** What to read of a field; nothing for an edge whose targets have no ID or @id to be named by. */
function selectionOf(f: FieldShape): string[] {
  if (f.kind === 'scalar') return [f.name];
  if (f.kind === 'geo') return [`${f.name} ${f.selection}`];
  if (f.kind === 'edge') return f.refs.length === 0 ? [] : [`${f.name} { ${f.refs.join(' ')} }`];
  const members = f.members.filter((m) => m.refs.length > 0);
  return members.length === 0 ? [] : [`${f.name} { __typename ${members.map((m) => `... on ${m.name} { ${m.refs.join(' ')} }`).join(' ')} }`];
}

/** Rows of one type, by uid. */
async function* rowsOf(engine: Reader, shape: TypeShape): AsyncGenerator<Record<string, unknown>> {
  const selection = [
    ...(shape.idField === undefined ? [] : [shape.idField]),
    ...shape.fields.flatMap(selectionOf),
  ].join(' ');
  for (let offset = 0; ; offset += page) {
    const response = await engine.execute({ method: 'POST', headers: {}, query: `{ query${shape.name}(first: ${page}, offset: ${offset}) { ${selection} } }` });
    const body = parseKeepingBigInts(response.body) as { data?: Record<string, Record<string, unknown>[] | null>; errors?: unknown };
    if (body.errors !== undefined) throw new Error(`reading ${shape.name}: ${JSON.stringify(body.errors)}`);
    const rows = body.data?.[`query${shape.name}`] ?? [];
    for (const row of rows) yield row;
    if (rows.length < page) return;
  }
}

/** `progress` is told after each node written, with the number of nodes to write. */
export async function exportData(engine: Reader, write: (line: string) => void, progress?: (done: number, total: number) => void): Promise<{ nodes: number; types: number }> {
  const shapes = await readShapes(engine);
  // Pass 1: number every node that has an ID in file order.
  const numberOf = new Map<string, string>();
  let n = 0;
  for (const shape of shapes) {
    for await (const row of rowsOf(engine, shape)) {
      n++;
      if (shape.idField !== undefined) numberOf.set(String(row[shape.idField]), `0x${n.toString(16)}`);
    }
  }
  // Pass 2: write.
  let nodes = 0;
  for (const shape of shapes) {
    for await (const row of rowsOf(engine, shape)) {
      nodes++;
      const out: Record<string, unknown> = { __typename: shape.name };
      if (shape.idField !== undefined) out[shape.idField] = `0x${nodes.toString(16)}`;
      for (const field of shape.fields) {
        const value = row[field.name];
        if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
        if (field.kind === 'scalar') out[field.name] = field.typeName === 'Float' ? floats(value) : value;
        else if (field.kind === 'geo') out[field.name] = value;
        else {
          const refs = (Array.isArray(value) ? value : [value]).flatMap((ref: Record<string, unknown>) => reference(field, ref, numberOf));
          refs.sort((a, b) => a.order - b.order || (a.text < b.text ? -1 : 1));
          if (refs.length > 0) out[field.name] = field.list ? refs.map((r) => r.ref) : refs[0]?.ref;
        }
      }
      write(JSON.stringify(out) + '\n');
      progress?.(nodes, n);
    }
  }
  return { nodes, types: shapes.length };
}

function floats(value: unknown): unknown {
  return Array.isArray(value) ? value.map(Number) : Number(value);
}

interface Reference {
  readonly ref: Record<string, unknown>;
  /** Sort keys: the renumbered ID (0 when named by @id), then the JSON text. */
  readonly order: number;
  readonly text: string;
}

/** An edge target as a reference by its new number or @id; a union target wrapped in its member's key. */
function reference(field: FieldShape, target: Record<string, unknown>, numberOf: ReadonlyMap<string, string>): Reference[] {
  let refs: readonly string[];
  let key: string | undefined;
  if (field.kind === 'union') {
    const member = field.members.find((m) => m.name === target['__typename']);
    if (member === undefined || member.refs.length === 0) return [];
    refs = member.refs;
    key = member.key;
  } else if (field.kind === 'edge') refs = field.refs;
  else return [];
  const inner = renumber(target, refs, numberOf);
  const ref = key === undefined ? inner : { [key]: inner };
  return [{ ref, order: refOrder(inner, refs), text: JSON.stringify(ref) }];
}

function renumber(ref: Record<string, unknown>, fields: readonly string[], numberOf: ReadonlyMap<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of fields) {
    const value = ref[name];
    if (value === null || value === undefined) continue;
    out[name] = numberOf.get(String(value)) ?? value;
  }
  return out;
}

function refOrder(ref: Record<string, unknown>, fields: readonly string[]): number {
  const first = fields[0] === undefined ? undefined : ref[fields[0]];
  return typeof first === 'string' && /^0x[0-9a-f]+$/.test(first) ? parseInt(first, 16) : 0;
}
