// The data a mutation-corpus case was written against. Dgraph's test feeds its rewriter the answer
// of the existence queries (`qnametouid`: query name → uid found) and, for update/delete, targets
// nodes by uid (`x as update<T>(func: uid(...))`). Here those nodes are really created — by uid of
// the named type, or holding the looked-up @id values — and every uid the case mentions is renamed
// to the engine's: the found ones to the created nodes, all others to uids no node has.

import type { FieldModel, TypeModel } from '../../../engine/schema/model.js';
import { lc, type Harness, type YamlCase } from './engine-harness.js';

export interface Placed {
  /** Corpus uid → engine uid (created nodes) or a uid no node holds. */
  readonly uids: ReadonlyMap<string, string>;
  /** Engine uid → the type of the node created there. */
  readonly types: ReadonlyMap<string, TypeModel>;
  /** The case's text with every quoted uid renamed. */
  rename(text: string): string;
}

interface Wanted {
  type: TypeModel;
  values: Record<string, unknown>;
}

/** Creates the nodes a case assumes and returns the uid renaming. */
export async function placePreconditions(h: Harness, c: YamlCase, mutationType: string | undefined): Promise<Placed> {
  const found = foundUids(c);
  const wanted = new Map<string, Wanted>(); // corpus uid → node to create
  const want = (uid: string, typeName: string): Wanted => {
    const type = concrete(h, typeName);
    const w = wanted.get(uid) ?? { type, values: {} };
    wanted.set(uid, w);
    return w;
  };
  for (const block of existenceBlocks(String(c['dgquery'] ?? ''))) {
    const uid = found.get(block.name);
    if (uid === undefined) continue;
    const typeName = block.name.replace(/_\d+$/, '');
    if (block.func === 'uid') for (const u of block.args) want(u, typeName);
    else {
      const w = want(uid, typeName);
      const field = fieldOfPredicate(w.type, block.args[0] as string);
      w.values[field.name] = parseArg(block.args[1] as string);
    }
  }
  // update/delete targets chosen by uid, holding the values the update removes (so the removal shows).
  if (mutationType !== undefined) {
    const removed = removedValues(c);
    for (const text of [c['dgquery'], c['dgquerysec']]) {
      const m = /x as (?:update|delete)\w+\(func: uid\(([^)]*)\)\)/.exec(String(text ?? ''));
      if (m === null) continue;
      for (const u of (m[1] as string).split(/,\s*/)) {
        const w = wanted.get(u) ?? want(u, mutationType);
        for (const [pred, value] of removed) {
          const field = [...w.type.fields.values()].find((f) => f.predicate === pred && (f.kind === 'scalar' || f.kind === 'enum'));
          if (field !== undefined && !field.isXid) w.values[field.name] = value;
        }
      }
    }
  }
  const uids = new Map<string, string>();
  const types = new Map<string, TypeModel>();
  let serial = 0;
  for (const [corpusUid, w] of wanted) {
    const engineUid = await create(h, w.type, w.values, () => ++serial);
    if (engineUid !== undefined) {
      uids.set(corpusUid, engineUid);
      types.set(engineUid, w.type);
    }
  }
  // Every other uid names a node that does not exist (Dgraph's existence query found nothing).
  let absent = 0xfffff00;
  const texts = [c['gqlmutation'], c['gqlvariables'], JSON.stringify(c['error'] ?? null), JSON.stringify(c['error2'] ?? null)].map((t) => String(t ?? ''));
  for (const text of texts) for (const [, u] of text.matchAll(/(0x[0-9a-fA-F]+)/g)) if (!uids.has(u as string)) uids.set(u as string, `0x${(absent++).toString(16)}`);
  const rename = (text: string) => text.replace(/0x[0-9a-fA-F]+\b/g, (u) => uids.get(u) ?? u);
  return { uids, types, rename };
}

/** Scalar values a case's deletejson removes from the update targets (`uid(x)`). */
function removedValues(c: YamlCase): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const m of (c['dgmutations'] ?? []) as { deletejson?: string }[]) {
    if (m.deletejson === undefined) continue;
    for (const o of [JSON.parse(m.deletejson) as unknown].flat() as Record<string, unknown>[]) {
      if (o['uid'] !== 'uid(x)') continue;
      for (const [pred, v] of Object.entries(o)) if (pred !== 'uid' && v !== null && typeof v !== 'object') out.push([pred, v]);
    }
  }
  return out;
}

function foundUids(c: YamlCase): Map<string, string> {
  const text = c['qnametouid'];
  if (typeof text !== 'string' || text.trim() === '') return new Map();
  return new Map(Object.entries(JSON.parse(text) as Record<string, string>));
}

/** `Name(func: uid(0x1, 0x2))` and `Name(func: eq(Type.field, "value"))` blocks of an existence query. */
function existenceBlocks(dgquery: string): { name: string; func: 'uid' | 'eq'; args: string[] }[] {
  const out: { name: string; func: 'uid' | 'eq'; args: string[] }[] = [];
  for (const m of dgquery.matchAll(/^\s*(\w+)\(func: (uid|eq)\((.*)\)\)/gm)) {
    const args = (m[3] as string).split(/,\s*(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    out.push({ name: m[1] as string, func: m[2] as 'uid' | 'eq', args });
  }
  return out;
}

function parseArg(text: string): unknown {
  return JSON.parse(text) as unknown;
}

function concrete(h: Harness, typeName: string): TypeModel {
  const type = h.model.types.get(typeName);
  if (type === undefined) throw new Error(`precondition: no type ${typeName}`);
  if (type.kind === 'object') return type;
  const impl = type.possibleTypes[0];
  if (impl === undefined) throw new Error(`precondition: ${typeName} has no implementation`);
  return concrete(h, impl);
}

function fieldOfPredicate(type: TypeModel, predicate: string): FieldModel {
  const field = [...type.fields.values()].find((f) => f.predicate === predicate);
  if (field === undefined) throw new Error(`precondition: ${type.name} has no field for ${predicate}`);
  return field;
}

/** Adds a node of `type` holding `values` and its required fields (filled in); its uid if the type has an ID field. */
async function create(h: Harness, type: TypeModel, values: Record<string, unknown>, next: () => number): Promise<string | undefined> {
  const input = fillRequired(h, type, values, next, 0);
  const key = type.idField ?? type.xidFields[0] ?? '__typename';
  const result = await h.gql(`mutation ($input: [Add${type.name}Input!]!) { add${type.name}(input: $input) { ${lc(type.name)} { ${key} } } }`, { input: [input] });
  if (result.errors !== undefined) throw new Error(`precondition ${type.name}: ${JSON.stringify(result.errors)}`);
  return type.idField === undefined ? undefined : (result.data[`add${type.name}`][lc(type.name)][0][key] as string);
}

function fillRequired(h: Harness, type: TypeModel, values: Record<string, unknown>, next: () => number, depth: number): Record<string, unknown> {
  const input: Record<string, unknown> = { ...values };
  if (type.secret !== undefined && depth === 0) input[type.secret.field] ??= 'placed-secret';
  for (const field of type.fields.values()) {
    if (input[field.name] !== undefined || !field.nonNull || field.kind === 'id' || field.readOnly || field.custom !== undefined) continue;
    const n = next();
    if (field.kind === 'object' && depth < 3) input[field.name] = fillRequired(h, concrete(h, field.typeName), {}, next, depth + 1);
    else if (field.kind === 'enum') input[field.name] = h.model.enums.get(field.typeName)?.[0];
    else if (field.typeName === 'Int' || field.typeName === 'Int64' || field.typeName === 'Float') input[field.name] = 1000 + n;
    else if (field.typeName === 'Boolean') input[field.name] = true;
    else if (field.typeName === 'DateTime') input[field.name] = '2000-01-01T00:00:00Z';
    else input[field.name] = `placed-${n}`;
    if (field.isList) input[field.name] = [input[field.name]];
  }
  return input;
}
