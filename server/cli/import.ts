// `npm run import -- <file> [--data-dir <dir>] [--schema <sdl file>] [--dry-run] [--errors <report>]`:
// loads NDJSON written by export (one `add` input per line plus "__typename") into the data directory,
// offline (stop the server first). Pass 1 adds the nodes without their edges, in file order (so in an
// empty directory the ids come out as in the file); pass 2 links the edges, references by ID mapped to
// the new ids, by @id as they are. Rejected records go to the error report; a summary ends the run.
// --dry-run runs the same against an in-memory copy of the schema and writes nothing.

import { readFileSync, writeFileSync } from 'node:fs';
import { DATA_FILE_MODE, Engine } from '../../engine/index.js';
import { cliArgs } from './cli-args.js';
import { progress } from './progress.js';
import { readShapes, type FieldShape, type TypeShape } from '../export/data-shape.js';
import { openOffline } from './open-offline.js';

type Row = Record<string, unknown>;

interface Pending {
  readonly line: number;
  readonly shape: TypeShape;
  readonly record: Row;
  readonly edges: Row;
  newId?: string;
}

export interface ImportSummary {
  readonly records: number;
  readonly added: number;
  readonly linked: number;
  readonly rejected: readonly { readonly line: number; readonly error: string; readonly record: unknown }[];
}

const batchSize = 500;

export async function importData(engine: Engine, lines: readonly string[], progress: (done: number) => void = () => undefined): Promise<ImportSummary> {
  const shapes = new Map((await readShapes(engine)).map((s) => [s.name, s]));
  const rejected: { line: number; error: string; record: unknown }[] = [];
  const pending: Pending[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] as string).trim();
    if (text === '') continue;
    let record: Row;
    try {
      record = JSON.parse(text) as Row;
    } catch (error) {
      rejected.push({ line: i + 1, error: `not JSON: ${(error as Error).message}`, record: text });
      continue;
    }
    const shape = shapes.get(String(record['__typename']));
    if (shape === undefined) {
      rejected.push({ line: i + 1, error: `unknown type ${JSON.stringify(record['__typename'])}`, record });
      continue;
    }
    const edges: Row = {};
    for (const field of shape.fields) if (isEdge(field) && record[field.name] !== undefined) edges[field.name] = record[field.name];
    pending.push({ line: i + 1, shape, record, edges });
  }
  const idMap = new Map<string, string>();
  let added = 0;
  for (let i = 0; i < pending.length; ) {
    let j = i + 1;
    while (j < pending.length && j - i < batchSize && pending[j]?.shape === pending[i]?.shape) j++;
    const batch = pending.slice(i, j);
    const ok = await addBatch(engine, batch, rejected);
    if (!ok) for (const one of batch) await addBatch(engine, [one], rejected);
    for (const one of batch) {
      if (one.newId === undefined && one.shape.idField !== undefined) continue;
      if (one.shape.idField !== undefined) idMap.set(String(one.record[one.shape.idField]), one.newId as string);
    }
    added += batch.filter((p) => p.newId !== undefined).length;
    i = j;
    progress(i / 2);
  }
  let linked = 0;
  const toLink = pending.filter((p) => p.newId !== undefined && Object.keys(p.edges).length > 0);
  for (let k = 0; k < toLink.length; k++) {
    const p = toLink[k] as Pending;
    const error = await link(engine, p, idMap);
    if (error === undefined) linked++;
    else rejected.push({ line: p.line, error: `edges: ${error}`, record: p.record });
    if (k % 100 === 0) progress(pending.length / 2 + (k / Math.max(1, toLink.length)) * (pending.length / 2));
  }
  progress(pending.length);
  return { records: lines.filter((l) => l.trim() !== '').length, added, linked, rejected };
}

async function addBatch(engine: Engine, batch: Pending[], rejected: { line: number; error: string; record: unknown }[]): Promise<boolean> {
  const shape = (batch[0] as Pending).shape;
  const lower = shape.name.charAt(0).toLowerCase() + shape.name.slice(1);
  const inputs = batch.map((p) => {
    const input: Row = {};
    for (const field of shape.fields) if (!isEdge(field) && p.record[field.name] !== undefined) input[field.name] = p.record[field.name];
    return input;
  });
  const select = shape.idField === undefined ? 'numUids' : `numUids ${lower} { ${shape.idField} }`;
  const body = await run(engine, `mutation ($input: [Add${shape.name}Input!]!) { add${shape.name}(input: $input) { ${select} } }`, { input: inputs });
  if (body.errors !== undefined) {
    if (batch.length === 1) rejected.push({ line: (batch[0] as Pending).line, error: messages(body.errors), record: (batch[0] as Pending).record });
    return false;
  }
  const payload = (body.data as Row)[`add${shape.name}`] as Row;
  const created = (payload[lower] as Row[] | undefined) ?? [];
  batch.forEach((p, k) => {
    p.newId = shape.idField === undefined ? 'added' : String(created[k]?.[shape.idField]);
  });
  return true;
}

async function link(engine: Engine, p: Pending, idMap: ReadonlyMap<string, string>): Promise<string | undefined> {
  const { shape } = p;
  const set: Row = {};
  for (const [name, value] of Object.entries(p.edges)) {
    // A union reference wraps its member's reference: `{ dogRef: { id } }`.
    const mapRef = (ref: Row): Row =>
      Object.fromEntries(Object.entries(ref).map(([k, v]) => [k, typeof v === 'string' ? (idMap.get(v) ?? v) : isRow(v) ? mapRef(v) : v]));
    set[name] = Array.isArray(value) ? (value as Row[]).map(mapRef) : mapRef(value as Row);
  }
  let filter: Row;
  if (shape.idField !== undefined) filter = { [shape.idField]: [p.newId] };
  else {
    const xid = shape.xidFields.find((f) => p.record[f] !== undefined);
    if (xid === undefined) return 'the type has neither an ID nor an @id field to find the node again';
    filter = { [xid]: { eq: p.record[xid] } };
  }
  const body = await run(engine, `mutation ($input: Update${shape.name}Input!) { update${shape.name}(input: $input) { numUids } }`, { input: { filter, set } });
  return body.errors === undefined ? undefined : messages(body.errors);
}

function isEdge(field: FieldShape): boolean {
  return field.kind === 'edge' || field.kind === 'union';
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function run(engine: Engine, query: string, variables: Row): Promise<{ data?: unknown; errors?: unknown }> {
  const response = await engine.execute({ method: 'POST', headers: {}, query, variables });
  return JSON.parse(response.body) as { data?: unknown; errors?: unknown };
}

function messages(errors: unknown): string {
  return (errors as { message: string }[]).map((e) => e.message).join('; ');
}

const importUsage = 'usage: npm run import -- <file.ndjson> [--data-dir <dir>] [--schema <sdl file>] [--dry-run] [--errors <report>]';
const importHelp = `Adds the nodes of an NDJSON export to an offline data directory (stop the server first).

  --data-dir <dir>     the data directory (default: snapshots)
  --schema <file>      deploy this schema first (else the directory's own schema is used)
  --dry-run            check every record against the schema in memory; write nothing
  --errors <file>      where rejected records are reported (default: <file>.errors.ndjson)
  -h, --help           this help`;

async function main(): Promise<void> {
  const options = { 'data-dir': { type: 'string' }, schema: { type: 'string' }, 'dry-run': { type: 'boolean' }, errors: { type: 'string' } } as const;
  const args = cliArgs(process.argv.slice(2), options, importUsage, importHelp);
  if (args === undefined) return;
  const { values, file } = args;
  const dataDir = values['data-dir'] ?? 'snapshots';
  const dryRun = values['dry-run'] ?? false;
  const started = performance.now();
  let sdl = values.schema === undefined ? undefined : readFileSync(values.schema, 'utf8');
  let engine: Engine;
  if (dryRun) {
    if (sdl === undefined) {
      const real = await openOffline(dataDir);
      sdl = real.currentSchema()?.schema;
      await real.close();
    }
    engine = await Engine.open({ dataDir: '', maxQueryTokens: 1_000_000, maxQueryDepth: 1000, debug: false });
  } else engine = await openOffline(dataDir);
  if (sdl !== undefined) {
    const result = await engine.updateSchema(sdl);
    if (!result.ok) throw new Error(`the schema does not compile: ${result.errors.map((e) => e.message).join('; ')}`);
  }
  if (engine.currentSchema() === null) throw new Error(`no schema in ${dataDir}: upload one first or pass --schema <file>`);
  const lines = readFileSync(file, 'utf8').split('\n');
  const total = lines.filter((l) => l.trim() !== '').length;
  const bar = progress('import', 'records', total);
  const summary = await importData(engine, lines, bar);
  bar.finish();
  await engine.close();
  const report = values.errors ?? `${file}.errors.ndjson`;
  if (summary.rejected.length > 0) writeFileSync(report, summary.rejected.map((r) => JSON.stringify(r)).join('\n') + '\n', { mode: DATA_FILE_MODE });
  const ms = Math.round(performance.now() - started);
  const verb = dryRun ? 'dry run: would import' : 'imported';
  process.stderr.write(
    `${verb} ${summary.added} of ${total} records (${summary.linked} with edges linked) in ${ms} ms; rejected ${summary.rejected.length}` +
      (summary.rejected.length > 0 ? ` (details in ${report})` : '') +
      (dryRun ? '; nothing was written' : '') +
      '\n',
  );
  if (summary.rejected.length > 0) process.exitCode = 1;
}

if (process.argv[1]?.endsWith('import.js') === true) {
  main().catch((error: unknown) => {
    process.stderr.write(`import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
