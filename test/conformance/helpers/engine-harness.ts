// Shared by the engine conformance suites: an Engine over a schema file, a JSON helper around
// execute(), the YAML case loader, and Dgraph JSON seed data (`Type.field` keys, `_:blank` uids)
// turned into ordinary add/update mutations through the public API.

import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { Engine } from '../../../engine/index.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import type { FieldModel, SchemaModel, TypeModel } from '../../../engine/schema/model.js';

export const testdata = '../shared/dgraph-testdata';

export interface GqlResult {
  data?: any;
  errors?: any[];
  extensions?: any;
}

export interface Harness {
  readonly engine: Engine;
  readonly model: SchemaModel;
  gql(query: string, variables?: Record<string, unknown>, extensions?: unknown): Promise<GqlResult & { kind: string }>;
}

export async function openHarness(schemaPath: string, options: { debug?: boolean; directJson?: boolean } = {}): Promise<Harness> {
  const sdl = readFileSync(`${testdata}/${schemaPath}`, 'utf8');
  const lambdaUrl = 'http://127.0.0.1:1/graphql-worker';
  const engine = await Engine.open({
    dataDir: '',
    maxQueryTokens: 50_000,
    maxQueryDepth: 200,
    debug: options.debug ?? false,
    lambdaUrl,
    ...(options.directJson === undefined ? {} : { directJson: options.directJson }),
  });
  const result = await engine.updateSchema(sdl);
  if (!result.ok) throw new Error(`schema ${schemaPath} failed: ${JSON.stringify(result.errors)}`);
  const compiled = compileSchema(sdl, { lambdaUrl });
  if (!compiled.ok) throw new Error('schema did not compile');
  return {
    engine,
    model: compiled.compiled.model,
    async gql(query, variables, extensions) {
      const response = await engine.execute({ method: 'POST', query, variables, extensions, headers: {} });
      return { kind: response.kind, ...(JSON.parse(response.body) as GqlResult) };
    },
  };
}

export interface YamlCase {
  readonly name: string;
  readonly [key: string]: unknown;
}

export function loadCases(path: string): YamlCase[] {
  return parseYaml(readFileSync(`${testdata}/${path}`, 'utf8')) as YamlCase[];
}

export type DgraphObject = Record<string, unknown> & { uid: string; 'dgraph.type': string | string[] };

/**
 * Seeds Dgraph JSON through add mutations: nodes whose required edges point at existing nodes are
 * added first (edges to existing nodes inline), the remaining edges are set afterwards by update.
 * Returns blank-node name → uid.
 */
export async function seed(h: Harness, dataPath: string): Promise<Map<string, string>> {
  return seedObjects(h, JSON.parse(readFileSync(`${testdata}/${dataPath}`, 'utf8')) as DgraphObject[]);
}

/** As `seed`, for Dgraph JSON objects already read. */
export async function seedObjects(h: Harness, objects: readonly DgraphObject[]): Promise<Map<string, string>> {
  const uids = new Map<string, { field: string; value: unknown }>();
  const typeOf = (o: DgraphObject): TypeModel => {
    const name = Array.isArray(o['dgraph.type']) ? o['dgraph.type'][0] : o['dgraph.type'];
    const type = [...h.model.types.values()].find((t) => t.kind === 'object' && t.dgraphType === name);
    if (type === undefined) throw new Error(`no type for ${String(name)}`);
    return type;
  };
  const fieldOf = (type: TypeModel, key: string): FieldModel | undefined => [...type.fields.values()].find((f) => f.predicate === key);
  // Reference to a seeded node: by its ID, else by its first @id value.
  const refTo = (_type: TypeModel, blank: string): Record<string, unknown> => {
    const key = uids.get(blank) as { field: string; value: unknown };
    return { [key.field]: key.value };
  };
  const keyOf = (type: TypeModel): string => type.idField ?? (type.xidFields[0] as string);
  const refsOf = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).map((v) => (v as { uid: string }).uid);
  let pending = [...objects];
  const later: { blank: string; type: TypeModel; field: FieldModel; refs: string[] }[] = [];
  while (pending.length > 0) {
    const next: DgraphObject[] = [];
    for (const object of pending) {
      const type = typeOf(object);
      const input: Record<string, unknown> = {};
      const deferred: { field: FieldModel; refs: string[] }[] = [];
      let blocked = false;
      for (const [key, value] of Object.entries(object)) {
        const field = fieldOf(type, key);
        if (field === undefined) continue;
        if (field.kind === 'object' || field.kind === 'interface' || field.kind === 'union') {
          const refs = refsOf(value);
          if (refs.every((r) => uids.has(r))) {
            const target = h.model.types.get(field.typeName) as TypeModel;
            const list = refs.map((r) => refTo(target, r));
            input[field.name] = field.isList ? list : list[0];
          } else if (field.nonNull) blocked = true;
          else deferred.push({ field, refs });
        } else input[field.name] = value;
      }
      if (blocked) {
        next.push(object);
        continue;
      }
      const key = keyOf(type);
      const added = await h.gql(`mutation ($input: [Add${type.name}Input!]!) { add${type.name}(input: $input) { ${lc(type.name)} { ${key} } } }`, {
        input: [input],
      });
      if (added.errors !== undefined) throw new Error(`seeding ${object.uid}: ${JSON.stringify(added.errors)}`);
      const value = added.data[`add${type.name}`][lc(type.name)][0][key] as unknown;
      uids.set(object.uid, { field: key, value });
      for (const d of deferred) later.push({ blank: object.uid, type, ...d });
    }
    if (next.length === pending.length) throw new Error('seed data has unsatisfiable required edges');
    pending = next;
  }
  for (const { blank, type, field, refs } of later) {
    const target = h.model.types.get(field.typeName) as TypeModel;
    const list = refs.map((r) => refTo(target, r));
    const set = { [field.name]: field.isList ? list : list[0] };
    const self = uids.get(blank) as { field: string; value: unknown };
    const filter = type.idField !== undefined ? { [self.field]: [self.value] } : { [self.field]: { eq: self.value } };
    const updated = await h.gql(`mutation ($input: Update${type.name}Input!) { update${type.name}(input: $input) { numUids } }`, {
      input: { filter, set },
    });
    if (updated.errors !== undefined) throw new Error(`seeding edges of ${blank}: ${JSON.stringify(updated.errors)}`);
  }
  return new Map([...uids].map(([blank, key]) => [blank, String(key.value)]));
}

export function lc(name: string): string {
  return `${name.charAt(0).toLowerCase()}${name.slice(1)}`;
}

/** YAML-folded JSON-ish snippets in the catalogues are YAML flow mappings: parse them as YAML. */
export function parseLoose(text: unknown): any {
  if (typeof text !== 'string') return text;
  return parseYaml(text);
}
