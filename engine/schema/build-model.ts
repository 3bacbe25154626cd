// Builds the plain-data SchemaModel (model.ts) that plan/ and exec/ read, from the validated and
// expanded definitions. Runs before generation adds filter arguments and `*Aggregate` fields.
import type {
  CustomFieldModel,
  CustomHttpModel,
  FieldKind,
  FieldModel,
  IndexKind,
  RootFieldModel,
  SchemaModel,
  TypeModel,
} from './model.js';
import type { Definition, FieldDef, Value } from './sdl-ast.js';
import { findArg, findChild, findDirective, typeName } from './sdl-ast.js';
import {
  dgraphPredArg,
  dgraphTypeName,
  effectiveSearchArgs,
  filterTypeNames,
  hasExtends,
  hasIDDirective,
  isExternalID,
  isIDField,
  isMultiLangField,
  isQueryOrMutation,
  isRemote,
  predicateName,
} from './helpers.js';
import { SUPPORTED_SEARCHES } from './search-table.js';
import { lambdaBodyTemplate } from './validators/custom-rules.js';
import type { CompletedSchema } from './generate-api.js';
import type { MetaInfo } from './parse-meta-lines.js';

const SCALARS = new Set(['String', 'Int', 'Int64', 'Float', 'Boolean', 'DateTime']);
const GEO = new Set(['Point', 'Polygon', 'MultiPolygon']);

export interface ModelInput {
  readonly defs: readonly Definition[];
  readonly meta: MetaInfo;
  readonly authorization?: Readonly<Record<string, unknown>>;
  readonly lambdaUrl?: string | undefined;
}

/** Everything the model needs from the definitions, captured before generation mutates them. */
export interface ModelTypes {
  readonly types: Map<string, TypeModel>;
  readonly enums: Map<string, readonly string[]>;
}

export function buildModelTypes(input: ModelInput): ModelTypes {
  const byName = new Map(input.defs.map((d) => [d.name, d]));
  const types = new Map<string, TypeModel>();
  const enums = new Map<string, readonly string[]>();
  const inverses = collectInverses(input.defs, byName);
  for (const d of input.defs) {
    if (d.kind === 'ENUM') enums.set(d.name, d.enumValues.map((v) => v.name));
    if (isQueryOrMutation(d.name)) continue;
    if (d.kind !== 'OBJECT' && d.kind !== 'INTERFACE' && d.kind !== 'UNION') continue;
    types.set(d.name, buildType(d, input, byName, inverses));
  }
  return { types, enums };
}

export function assembleModel(mt: ModelTypes, completed: CompletedSchema, input: ModelInput): SchemaModel {
  const roots = (def: Definition, generated: CompletedSchema['generatedRoots']['query']): Map<string, RootFieldModel> => {
    const out = new Map<string, RootFieldModel>();
    for (const f of def.fields) {
      const g = generated.get(f.name);
      if (g) out.set(f.name, { name: f.name, kind: g.kind, type: g.type });
      else if (findDirective(f.directives, 'custom') || findDirective(f.directives, 'lambda')) {
        const custom = customModel(f, def, true, input.lambdaUrl);
        out.set(f.name, custom ? { name: f.name, kind: 'custom', custom } : { name: f.name, kind: 'custom' });
      }
    }
    return out;
  };
  const model: SchemaModel = {
    types: mt.types,
    enums: mt.enums,
    queries: roots(completed.query, completed.generatedRoots.query),
    mutations: roots(completed.mutation, completed.generatedRoots.mutation),
    subscriptions: roots(completed.subscription, completed.generatedRoots.subscription),
    secrets: input.meta.secrets,
    allowedOrigins: input.meta.allowedOrigins,
    ...(input.authorization ? { authorization: input.authorization } : {}),
  };
  return model;
}

type InverseMap = Map<string, { type: string; field: string }>;

/** `Type.field` → its inverse, on both sides (the other side may not carry the directive). */
function collectInverses(defs: readonly Definition[], byName: Map<string, Definition>): InverseMap {
  const out: InverseMap = new Map();
  for (const d of defs) {
    for (const f of d.fields) {
      const target = findArg(findDirective(f.directives, 'hasInverse'), 'field')?.value.raw;
      if (target === undefined) continue;
      const other = typeName(f.type);
      out.set(`${d.name}.${f.name}`, { type: other, field: target });
      if (!out.has(`${other}.${target}`)) out.set(`${other}.${target}`, { type: d.name, field: f.name });
    }
  }
  // Inherited copies share the interface field's inverse.
  for (const d of defs) {
    if (d.kind !== 'OBJECT') continue;
    for (const f of d.fields) {
      if (out.has(`${d.name}.${f.name}`)) continue;
      for (const i of d.interfaces) {
        const inv = byName.get(i)?.fields.some((x) => x.name === f.name) ? out.get(`${i}.${f.name}`) : undefined;
        if (inv) {
          out.set(`${d.name}.${f.name}`, inv);
          break;
        }
      }
    }
  }
  return out;
}

function buildType(d: Definition, input: ModelInput, byName: Map<string, Definition>, inverses: InverseMap): TypeModel {
  const fields = new Map<string, FieldModel>();
  for (const f of d.fields) fields.set(f.name, buildField(d, f, input, byName, inverses));
  const possibleTypes =
    d.kind === 'UNION' ? [...d.types] : d.kind === 'INTERFACE' ? input.defs.filter((x) => x.kind === 'OBJECT' && x.interfaces.includes(d.name)).map((x) => x.name) : [];
  // As Dgraph (schema/wrappers.go IDField, XIDFields): a type extension has no uid ID field; an @external ID is an XID.
  const idField = hasExtends(d) ? undefined : d.fields.find(isIDField)?.name;
  const secretDir = findDirective(d.directives, 'secret') ?? inheritedSecret(d, byName);
  const secretFieldName = findArg(secretDir, 'field')?.value.raw;
  const secretPred = findArg(secretDir, 'pred')?.value.raw;
  return {
    name: d.name,
    kind: d.kind === 'UNION' ? 'union' : d.kind === 'INTERFACE' ? 'interface' : 'object',
    dgraphType: dgraphTypeName(d),
    fields,
    interfaces: [...d.interfaces],
    possibleTypes,
    ...(idField !== undefined ? { idField } : {}),
    xidFields: d.fields.filter((f) => hasIDDirective(f) || isExternalID(f)).map((f) => f.name),
    ...(secretFieldName ? { secret: { field: secretFieldName, predicate: secretPred ?? `${dgraphTypeName(d)}.${secretFieldName}` } } : {}),
    remote: isRemote(d),
  };
}

function inheritedSecret(d: Definition, byName: Map<string, Definition>): ReturnType<typeof findDirective> {
  for (const i of d.interfaces) {
    const s = findDirective(byName.get(i)?.directives ?? [], 'secret');
    if (s) return s;
  }
  return undefined;
}

function declaringType(d: Definition, f: FieldDef, byName: Map<string, Definition>): string {
  for (const i of d.interfaces) {
    if (byName.get(i)?.fields.some((x) => x.name === f.name)) return i;
  }
  return d.name;
}

/** Default predicates are named after the Dgraph type (`@dgraph(type: "X")` → `X.<field>`), as Dgraph does. */
function dgraphTypeOf(name: string, byName: Map<string, Definition>): string {
  const d = byName.get(name);
  return d === undefined ? name : dgraphTypeName(d);
}

function fieldKind(f: FieldDef, byName: Map<string, Definition>): FieldKind {
  const tn = typeName(f.type);
  if (tn === 'ID') return 'id';
  if (findDirective(f.directives, 'embedding')) return 'embedding';
  if (SCALARS.has(tn)) return 'scalar';
  if (GEO.has(tn)) return 'geo';
  const k = byName.get(tn)?.kind;
  if (k === 'ENUM') return 'enum';
  if (k === 'INTERFACE') return 'interface';
  if (k === 'UNION') return 'union';
  return 'object';
}

function buildField(d: Definition, f: FieldDef, input: ModelInput, byName: Map<string, Definition>, inverses: InverseMap): FieldModel {
  const declaring = declaringType(d, f, byName);
  const externalKey = isExternalID(f);
  const kind = externalKey ? 'scalar' : fieldKind(f, byName);
  const isEnum = kind === 'enum';
  const search: IndexKind[] = externalKey ? ['hash'] : [];
  for (const arg of effectiveSearchArgs(f, isEnum)) {
    const idx = SUPPORTED_SEARCHES[arg.replace(/\(.*$/s, '')]?.index;
    if (idx && !search.includes(idx)) search.push(idx);
  }
  const filters = filterTypeNames(f, isEnum);
  const pred = dgraphPredArg(f);
  const reverseOf = pred !== undefined && (pred.startsWith('~') || pred.startsWith('<~')) ? pred.replace(/^<?~/, '').replace(/>$/, '') : undefined;
  const inverse = inverses.get(`${d.name}.${f.name}`);
  const idDir = findDirective(f.directives, 'id');
  const custom = customModel(f, d, isQueryOrMutation(d.name), input.lambdaUrl);
  const defaults = defaultValues(f);
  const languages = languageFallbacks(pred);
  return {
    name: f.name,
    typeName: externalKey ? 'String' : typeName(f.type),
    kind,
    isList: f.type.name === undefined,
    nonNull: f.type.nonNull,
    itemNonNull: f.type.elem?.nonNull ?? false,
    predicate: predicateName(f, dgraphTypeOf(declaring, byName)),
    ...(reverseOf !== undefined ? { reverseOf } : {}),
    declaringType: declaring,
    isXid: idDir !== undefined || externalKey,
    ...(externalKey ? { externalKey } : {}),
    xidInterface: findArg(idDir, 'interface')?.value.raw === 'true',
    search,
    ...(filters.length > 0 ? { filterInput: filters.join('_') } : {}),
    ...(inverse ? { inverse } : {}),
    ...(custom ? { custom } : {}),
    ...(defaults ? { defaults } : {}),
    readOnly: isMultiLangField(f, false),
    ...(languages !== undefined ? { languages } : {}),
    ...(f.description !== undefined ? { description: f.description } : {}),
  };
}

/** `p@hi:zh:.` → `p@hi`, `p@zh`, `p`; `p@.` → `p`, `p@*`; one language or none → undefined. */
function languageFallbacks(pred: string | undefined): string[] | undefined {
  const at = pred?.indexOf('@') ?? -1;
  if (pred === undefined || at <= 0) return undefined;
  const base = pred.slice(0, at);
  const tags = pred.slice(at + 1).split(':');
  if (tags.length === 1 && tags[0] !== '.') return undefined;
  if (tags.length === 1) return [base, `${base}@*`];
  return tags.map((tag) => (tag === '.' ? base : `${base}@${tag}`));
}

function defaultValues(f: FieldDef): { add?: string; update?: string } | undefined {
  const dir = findDirective(f.directives, 'default');
  if (!dir) return undefined;
  const add = findChild(findArg(dir, 'add')?.value, 'value')?.value.raw;
  const update = findChild(findArg(dir, 'update')?.value, 'value')?.value.raw;
  return { ...(add !== undefined ? { add } : {}), ...(update !== undefined ? { update } : {}) };
}

function stringList(v: Value | undefined): string[] {
  return v ? v.children.map((c) => c.value.raw) : [];
}

function customModel(f: FieldDef, parent: Definition, isRoot: boolean, lambdaUrl: string | undefined): CustomFieldModel | undefined {
  if (findDirective(f.directives, 'lambda')) {
    const http: CustomHttpModel = {
      url: lambdaUrl ?? '',
      method: 'POST',
      body: lambdaBodyTemplate(parent, f),
      mode: isRoot ? 'SINGLE' : 'BATCH',
      forwardHeaders: [],
      secretHeaders: [],
      introspectionHeaders: [],
      skipIntrospection: true,
    };
    return { http, lambda: true };
  }
  const dir = findDirective(f.directives, 'custom');
  if (!dir) return undefined;
  const dql = findArg(dir, 'dql')?.value.raw;
  const httpV = findArg(dir, 'http')?.value;
  if (!httpV) return dql !== undefined ? { dql, lambda: false } : { lambda: false };
  const get = (k: string): string | undefined => findChild(httpV, k)?.value.raw;
  const method = (get('method') ?? 'GET') as CustomHttpModel['method'];
  const body = get('body');
  const graphql = get('graphql');
  const http: CustomHttpModel = {
    url: get('url') ?? '',
    method,
    ...(body !== undefined ? { body } : {}),
    ...(graphql !== undefined ? { graphql } : {}),
    mode: get('mode') === 'BATCH' ? 'BATCH' : 'SINGLE',
    forwardHeaders: stringList(findChild(httpV, 'forwardHeaders')?.value),
    secretHeaders: stringList(findChild(httpV, 'secretHeaders')?.value),
    introspectionHeaders: stringList(findChild(httpV, 'introspectionHeaders')?.value),
    skipIntrospection: get('skipIntrospection') === 'true',
  };
  return dql !== undefined ? { http, dql, lambda: false } : { http, lambda: false };
}
