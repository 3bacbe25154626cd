// What export/import need to know of the deployed schema, read by introspection through the facade:
// the types that have an `add` mutation, their add-input fields (scalar, geo or edge), the ID field and
// the @id fields used to reference a node.

import type { Engine } from '../../engine/index.js';

export type FieldShape =
  | { readonly name: string; readonly kind: 'scalar'; readonly typeName: string }
  | { readonly name: string; readonly kind: 'geo'; readonly selection: string }
  /** `refs`: the target's ID field, else its @id fields — how a reference names a node. */
  | { readonly name: string; readonly kind: 'edge'; readonly target: string; readonly list: boolean; readonly refs: readonly string[] }
  /** An edge of a union type: a reference names one member (`{ dogRef: { id } }`). */
  | { readonly name: string; readonly kind: 'union'; readonly target: string; readonly list: boolean; readonly members: readonly MemberShape[] };

/** A union member: its key in `<U>Ref` and how a reference names one of its nodes (empty: it cannot be). */
export interface MemberShape {
  readonly name: string;
  readonly key: string;
  readonly refs: readonly string[];
}

export interface TypeShape {
  readonly name: string;
  readonly idField: string | undefined;
  readonly xidFields: readonly string[];
  readonly fields: readonly FieldShape[];
}

const geoSelections: Readonly<Record<string, string>> = {
  PointRef: '{ longitude latitude }',
  PolygonRef: '{ coordinates { points { longitude latitude } } }',
  MultiPolygonRef: '{ polygons { coordinates { points { longitude latitude } } } }',
};

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface Introspected {
  name: string;
  kind: string;
  fields: { name: string; args: { name: string; type: TypeRef }[]; type: TypeRef }[] | null;
  inputFields: { name: string; type: TypeRef }[] | null;
}

const typeRef = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';

/** What export and import read through: the engine's `execute`. */
export type Reader = Pick<Engine, 'execute'>;

export async function readShapes(engine: Reader): Promise<TypeShape[]> {
  const response = await engine.execute({
    method: 'POST',
    headers: {},
    query: `{ __schema { types { name kind fields { name args { name type { ${typeRef} } } type { ${typeRef} } } inputFields { name type { ${typeRef} } } } } }`,
  });
  const body = JSON.parse(response.body) as { data?: { __schema: { types: Introspected[] } }; errors?: unknown };
  if (body.data === undefined) throw new Error(`no schema to read: ${JSON.stringify(body.errors)}`);
  const types = new Map(body.data.__schema.types.map((t) => [t.name, t]));
  const mutation = types.get('Mutation');
  const query = types.get('Query');
  const shapes: TypeShape[] = [];
  for (const field of mutation?.fields ?? []) {
    const m = /^add(.+)$/.exec(field.name);
    const name = m?.[1];
    if (name === undefined || types.get(name)?.kind !== 'OBJECT') continue;
    const input = types.get(`Add${name}Input`);
    const object = types.get(name);
    const get = query?.fields?.find((f) => f.name === `get${name}`);
    const idField = object?.fields?.find((f) => named(f.type) === 'ID')?.name;
    const xidFields = (get?.args ?? []).map((a) => a.name).filter((a) => a !== idField);
    const fields: FieldShape[] = [];
    for (const f of input?.inputFields ?? []) {
      const typeName = named(f.type);
      const geo = geoSelections[typeName];
      if (geo !== undefined) fields.push({ name: f.name, kind: 'geo', selection: geo });
      else if (typeName.endsWith('Ref') && types.get(typeName)?.kind === 'INPUT_OBJECT') {
        const target = typeName.slice(0, -3);
        const list = isList(f.type);
        if (types.get(target)?.kind === 'UNION') {
          const members = (types.get(typeName)?.inputFields ?? []).map((m) => {
            const member = named(m.type).slice(0, -3);
            return { name: member, key: m.name, refs: referenceFields(types, query, member) };
          });
          fields.push({ name: f.name, kind: 'union', target, list, members });
        } else fields.push({ name: f.name, kind: 'edge', target, list, refs: referenceFields(types, query, target) });
      } else fields.push({ name: f.name, kind: 'scalar', typeName });
    }
    shapes.push({ name, idField, xidFields, fields });
  }
  return shapes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** How a reference names a node of `target`: its ID field, else the @id arguments of `get<T>`. */
function referenceFields(types: ReadonlyMap<string, Introspected>, query: Introspected | undefined, target: string): string[] {
  const targetId = types.get(target)?.fields?.find((t) => named(t.type) === 'ID')?.name;
  if (targetId !== undefined) return [targetId];
  return (query?.fields?.find((q) => q.name === `get${target}`)?.args ?? []).map((a) => a.name);
}

function named(t: TypeRef): string {
  return t.name ?? (t.ofType === null ? '' : named(t.ofType));
}

function isList(t: TypeRef): boolean {
  if (t.kind === 'LIST') return true;
  return t.kind === 'NON_NULL' && t.ofType !== null && isList(t.ofType);
}

/**
 * JSON.parse that keeps integers too long for a double exact, as strings (Int64 values).
 * Only number tokens outside strings are touched.
 */
export function parseKeepingBigInts(text: string): unknown {
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      continue;
    }
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j] as string)) j++;
      const token = text.slice(i, j);
      if (/^-?\d{16,}$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += text.slice(last, i) + `"${token}"`;
        last = j;
      }
      i = j - 1;
    }
  }
  return JSON.parse(out + text.slice(last));
}
