// resolve/{add,update,delete}_mutation_test.yaml through the engine facade, against
// resolve/schema.graphql, each case on a fresh engine holding the data the case was written against
// (helpers/mutation-preconditions.ts: the nodes its existence queries found and its update/delete
// targets, every uid renamed to the engine's). A case with an `error` or `error2` (the error Dgraph
// gives once the existence queries answered `qnametouid`) must fail with that message, wrapped as
// `couldn't rewrite mutation <name> because ...`, and change nothing. The others must run without
// errors, and what Dgraph would write (`dgmutations`: setjson/deletejson under their @if conditions)
// is read back through queries: every scalar of every node written, exactly. Cases that cannot run
// are listed with their reason in unsupported.ts.

import { describe, expect, it } from 'vitest';
import type { FieldModel, TypeModel } from '../../engine/schema/model.js';
import { loadCases, openHarness, parseLoose, type Harness, type YamlCase } from './helpers/engine-harness.js';
import { placePreconditions, type Placed } from './helpers/mutation-preconditions.js';
import { unsupportedMutations } from './unsupported.js';
import { listedCases } from './helpers/listed-cases.js';

type Json = Record<string, unknown>;
const counts: Record<string, Record<string, number>> = {};

async function nodeCount(h: Harness): Promise<number> {
  const types = [...h.model.types.values()].filter((t) => t.kind === 'object' && !t.remote && h.model.queries.has(`aggregate${t.name}`));
  const query = `{ ${types.map((t) => `${t.name}: aggregate${t.name} { count }`).join(' ')} }`;
  // An internal read: the schema's `@auth` rule on Y hides its nodes from every /graphql request (no
  // Authorization line, so no claims: Dgraph's anonymous view), and the count must include them.
  const response = await h.engine.execute({ method: 'POST', query, headers: {} }, true);
  const result = JSON.parse(String(response.body)) as { data: unknown };
  return Object.values(result.data as Record<string, { count: number }>).reduce((a, b) => a + b.count, 0);
}

/** Runs one case; what did not conform, or undefined. */
async function runCase(c: YamlCase): Promise<string | undefined> {
  const h = await openHarness('resolve/schema.graphql');
  const text = c['gqlmutation'] as string;
  const root = /\b(add|update|delete)(\w+)\s*\(/.exec(text);
  const mutationType = root?.[2];
  const placed = await placePreconditions(h, c, mutationType);
  const variables = c['gqlvariables'] === undefined ? undefined : parseLoose(placed.rename(String(c['gqlvariables'])));
  const expectedError = ((c['error'] ?? c['error2']) as { message: string } | undefined)?.message;
  const before = await nodeCount(h);
  const started = Date.now();
  const result = await h.gql(placed.rename(text), variables);
  expect(result.kind).toBe('ok');
  if (expectedError !== undefined) {
    // Several rewriting errors come as one Go error list, its messages joined by newlines.
    const messages = placed.rename(expectedError.trim()).split('\n');
    expect(result.errors?.map((e: { message: string }) => e.message)).toEqual(messages.map((m) => `couldn't rewrite mutation ${root?.[1]}${mutationType} because ${m}`));
    expect(await nodeCount(h)).toBe(before);
    return undefined;
  }
  if (result.errors !== undefined) return `errors: ${JSON.stringify(result.errors)}`;
  return readBack(h, c, placed, mutationType, started);
}

interface Written {
  type: TypeModel;
  uid?: string; // known engine uid of an existing node
  values: Map<FieldModel, unknown>; // field → expected value (undefined = removed)
}

/** Every node `dgmutations` writes, with its scalar values, compared with what queries read back. */
async function readBack(h: Harness, c: YamlCase, placed: Placed, mutationType: string | undefined, started: number): Promise<string | undefined> {
  // `$now` defaults: the corpus ran on a fixed clock; here the value must be a time of this mutation.
  const input = `${String(c['gqlmutation'])}${String(c['gqlvariables'] ?? '')}`;
  const byClock = (f: FieldModel) => f.defaults?.add === '$now' || f.defaults?.update === '$now';
  const expectedOf = (f: FieldModel, v: unknown): unknown => (byClock(f) && typeof v === 'string' && !input.includes(v) ? 'now' : expectedValue(f, v));
  const now = (f: FieldModel, v: unknown): unknown => {
    const t = Date.parse(String(v));
    return byClock(f) && t >= Math.floor(started / 1000) * 1000 && t <= Date.now() ? 'now' : v;
  };
  const found = new Set(Object.keys(typeof c['qnametouid'] === 'string' && c['qnametouid'].trim() !== '' ? (JSON.parse(c['qnametouid']) as object) : {}));
  const targets = [...placed.types].filter(([, t]) => t.name === mutationType || t.interfaces.includes(mutationType ?? '')).map(([u]) => u);
  const written = new Map<string, Written>();
  const nodeOf = (o: Json, typeHint: TypeModel | undefined): Written | undefined => {
    const ref = String(o['uid']);
    const dtype = [o['dgraph.type']].flat()[0] as string | undefined;
    let type = dtype === undefined ? typeHint : [...h.model.types.values()].find((t) => t.kind === 'object' && t.dgraphType === dtype);
    let uid: string | undefined;
    if (/^0x/.test(ref)) uid = ref;
    else if (ref === 'uid(x)') uid = targets.length === 1 ? targets[0] : undefined;
    else if (/^uid\(/.test(ref)) return undefined; // a node found by an @id: checked through its new values below
    if (uid !== undefined) type = placed.types.get(uid) ?? type;
    if (type === undefined || (ref.startsWith('uid(') && uid === undefined)) return undefined;
    const key = uid ?? ref;
    const w = written.get(key) ?? { type, ...(uid === undefined ? {} : { uid }), values: new Map() };
    written.set(key, w);
    return w;
  };
  const walk = (value: unknown, typeHint: TypeModel | undefined, remove: boolean): void => {
    for (const o of [value].flat() as Json[]) {
      if (o === null || typeof o !== 'object') continue;
      const node = nodeOf(o, typeHint);
      for (const [pred, v] of Object.entries(o)) {
        if (pred === 'uid' || pred === 'dgraph.type') continue;
        const field = node === undefined ? undefined : [...node.type.fields.values()].find((f) => f.predicate === pred);
        const edge = v !== null && typeof v === 'object' && !isGeo(v) && [v].flat().every((x) => typeof x === 'object' && x !== null);
        if (edge) {
          walk(v, field === undefined ? undefined : h.model.types.get(field.typeName), remove);
          continue;
        }
        if (node === undefined || field === undefined) continue;
        node.values.set(field, remove ? undefined : v);
      }
    }
  };
  const mutations = (c['dgmutations'] ?? []) as { setjson?: string; deletejson?: string; cond?: string }[];
  for (const m of mutations) {
    if (m.cond !== undefined && !holds(m.cond, found, targets.length > 0)) continue;
    if (m.setjson !== undefined) walk(JSON.parse(placed.rename(m.setjson)), undefined, false);
    if (m.deletejson !== undefined) walk(JSON.parse(placed.rename(m.deletejson)), undefined, true);
  }
  for (const w of written.values()) {
    const fields = [...w.values.keys()].filter((f) => f.kind !== 'object' && f.kind !== 'interface' && f.kind !== 'union');
    if (fields.length === 0) continue;
    const selection = fields.map((f) => `${f.name}${geoSelection(f)}`).join(' ');
    const expected = Object.fromEntries(fields.map((f) => [f.name, expectedOf(f, w.values.get(f))]));
    const read = (n: Json | null) => (n === null ? null : Object.fromEntries(Object.entries(normalize(n, fields) as Json).map(([k, v]) => [k, now(w.type.fields.get(k) as FieldModel, v)])));
    // A required value removed (Dgraph allows it): reading the node fails as Dgraph's completion does.
    const lost = fields.find((f) => f.nonNull && !f.isList && expected[f.name] === null);
    if (w.uid !== undefined && w.type.idField !== undefined) {
      const got = await h.gql(`query ($id: ID!) { get${w.type.name}(${w.type.idField}: $id) { ${selection} } }`, { id: w.uid });
      if (lost !== undefined) {
        expect(got.data).toEqual({ [`get${w.type.name}`]: null });
        expect(got.errors?.map((e: { message: string }) => e.message)).toEqual([
          `Non-nullable field '${lost.name}' (type ${lost.typeName}!) was not present in result from Dgraph.  GraphQL error propagation triggered.`,
        ]);
      } else expect(read(got.data[`get${w.type.name}`] as Json | null)).toEqual(expected);
    } else if (w.uid === undefined) {
      const got = await h.gql(`{ query${w.type.name} { ${selection} } }`);
      const all = (got.data[`query${w.type.name}`] as Json[]).map(read);
      expect(all).toContainEqual(expected);
    }
  }
  return undefined;
}

/** A `dgmutations` @if condition over the existence queries' answers (`x`: the update targets). */
function holds(cond: string, found: ReadonlySet<string>, targets: boolean): boolean {
  const js = cond
    .replace(/^@if\(/, '(')
    .replace(/(gt|eq)\(len\((\w+)\), 0\)/g, (_, op: string, name: string) => String((name === 'x' ? targets : found.has(name)) === (op === 'gt')))
    .replace(/\bAND\b/g, '&&')
    .replace(/\bOR\b/g, '||')
    .replace(/\bNOT\b/g, '!');
  if (!/^[()\s!&|truefals]*$/.test(js)) throw new Error(`condition ${cond}`);
  return Boolean(new Function(`return ${js};`)());
}

function isGeo(v: object): boolean {
  return 'coordinates' in v && 'type' in v;
}

function geoSelection(f: FieldModel): string {
  const point = '{ latitude longitude }';
  const polygon = `{ coordinates { points ${point} } }`;
  if (f.typeName === 'Point') return ` ${point}`;
  if (f.typeName === 'Polygon') return ` ${polygon}`;
  if (f.typeName === 'MultiPolygon') return ` { polygons ${polygon} }`;
  return '';
}

/** The GraphQL answer for a value Dgraph stores (geo GeoJSON → lat/long objects, lists unordered). */
function expectedValue(f: FieldModel, v: unknown): unknown {
  if (v === undefined || v === null) return f.isList ? [] : null;
  const point = (c: number[]) => ({ latitude: c[1], longitude: c[0] });
  const polygon = (rings: number[][][]) => ({ coordinates: rings.map((r) => ({ points: r.map(point) })) });
  if (f.typeName === 'Point') return point((v as { coordinates: number[] }).coordinates);
  if (f.typeName === 'Polygon') return polygon((v as { coordinates: number[][][] }).coordinates);
  if (f.typeName === 'MultiPolygon') return { polygons: (v as { coordinates: number[][][][] }).coordinates.map(polygon) };
  return canonical(f, v);
}

function normalize(node: Json | null, fields: FieldModel[]): Json | null {
  if (node === null) return null;
  return Object.fromEntries(fields.map((f) => [f.name, f.kind === 'geo' ? node[f.name] : canonical(f, node[f.name])]));
}

/** Values compared by meaning: DateTime as an instant, Int64 as an integer, lists as sorted sets. */
function canonical(f: FieldModel, v: unknown): unknown {
  if (v === null || v === undefined) return f.isList ? [] : null;
  if (Array.isArray(v)) return v.map((x) => canonical({ ...f, isList: false }, x)).sort();
  if (f.typeName === 'DateTime') return new Date(String(v)).toISOString();
  // Dgraph's setjson holds @default values as text; they are stored by the field's type.
  if (f.typeName === 'Boolean' && typeof v === 'string') return v === 'true';
  if ((f.typeName === 'Int' || f.typeName === 'Float') && typeof v === 'string') return Number(v);
  if (f.typeName === 'Int64') return String(BigInt(v as string));
  return v;
}

for (const file of ['add', 'update', 'delete'] as const) {
  describe(`${file}_mutation_test.yaml`, () => {
    const listed = unsupportedMutations[file];
    const tally = (counts[file] = { passed: 0, listed: 0, total: 0 });
    listedCases(loadCases(`resolve/${file}_mutation_test.yaml`), listed, tally, runCase);
  });
}

describe('counts', () => {
  it('reports mutation conformance counts', () => {
    console.log('engine-mutation conformance:', JSON.stringify(counts));
  });
});


