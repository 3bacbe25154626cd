// Validators for field directives (Dgraph's directiveValidators, REFERENCE §9.2). Each returns
// the errors for one directive use; @hasInverse also completes the other side of the edge.
import type { SchemaError } from '../../api.js';
import type { Definition, Directive, FieldDef } from '../sdl-ast.js';
import { findArg, findChild, findDirective, typeName, typeString } from '../sdl-ast.js';
import { dgraphPredArg, hasIDDirective, isCustomOrLambda, isIDField, isRemote } from '../helpers.js';
import { ENUM_SEARCHES, INBUILT_TYPES, SUPPORTED_SEARCHES } from '../search-table.js';
import { errorAt } from './errors.js';
import { isReservedKeyWord } from './reserved.js';
import { customDirectiveValidation, lambdaDirectiveValidation } from './custom-rules.js';

export interface DirectiveContext {
  readonly types: ReadonlyMap<string, Definition>;
  readonly secrets: ReadonlyMap<string, string>;
  readonly lambdaUrl?: string | undefined;
}

export type DirectiveValidator = (ctx: DirectiveContext, d: Definition, f: FieldDef, dir: Directive) => SchemaError[];

const kindOf = (ctx: DirectiveContext, name: string): string | undefined =>
  name in INBUILT_TYPES && !['Point', 'Polygon', 'MultiPolygon'].includes(name) ? 'SCALAR' : ctx.types.get(name)?.kind;

/** The interface (of d) that declares field `name` and carries @hasInverse on it, if any. */
function parentInterface(ctx: DirectiveContext, d: Definition | undefined, name: string): Definition | undefined {
  for (const i of d?.interfaces ?? []) {
    const intf = ctx.types.get(i);
    if (intf?.fields.some((f) => f.name === name)) return intf;
  }
  return undefined;
}

function isInverse(ctx: DirectiveContext, expectedType: string, expectedField: string, invTypeName: string, field: FieldDef): string {
  const parent = parentInterface(ctx, ctx.types.get(expectedType), expectedField);
  if (parent && findDirective(parent.fields.find((f) => f.name === expectedField)?.directives ?? [], 'hasInverse')) {
    expectedType = parent.name;
  }
  if (typeName(field.type) !== expectedType) {
    return `Type ${expectedType}; Field ${expectedField}: @hasInverse is required to link the fields of same type, but the field ${field.name} is of the type ${typeString(field.type)} instead of ${expectedType}. To link these make sure the fields are of the same type.`;
  }
  const dir = findDirective(field.directives, 'hasInverse');
  if (!dir) return '';
  const arg = findArg(dir, 'field');
  if (!arg || arg.value.raw !== expectedField) {
    return `Type ${expectedType}; Field ${expectedField}: @hasInverse should be consistant. ${expectedType}.${expectedField} is the inverse of ${invTypeName}.${field.name}, but ${invTypeName}.${field.name} is the inverse of ${expectedType}.${arg?.value.raw ?? ''}.`;
  }
  return '';
}

const hasInverseValidation: DirectiveValidator = (ctx, d, f, dir) => {
  const invTypeName = typeName(f.type);
  const invType = ctx.types.get(invTypeName);
  if (invType?.kind !== 'OBJECT' && invType?.kind !== 'INTERFACE') {
    return [errorAt(f.pos, `Type ${d.name}; Field ${f.name}: Field ${f.name} is of type ${invTypeName}, but @hasInverse directive only applies to fields with object types.`)];
  }
  const arg = findArg(dir, 'field');
  if (!arg) return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: @hasInverse directive doesn't have field argument.`)];
  const invField = invType.fields.find((x) => x.name === arg.value.raw);
  if (!invField) return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: inverse field ${arg.value.raw} doesn't exist for type ${invTypeName}.`)];
  const msg = isInverse(ctx, d.name, f.name, invTypeName, invField);
  if (msg) return [errorAt(dir.pos, msg)];
  if (!findDirective(invField.directives, 'hasInverse')) {
    const add = (x: FieldDef): void => {
      x.directives.push({ name: 'hasInverse', args: [{ name: 'field', value: { kind: 'Enum', raw: f.name, children: [], pos: dir.pos }, pos: dir.pos }], pos: dir.pos });
    };
    add(invField);
    if (invType.kind === 'INTERFACE') {
      for (const t of ctx.types.values()) {
        if (!t.interfaces.includes(invType.name)) continue;
        const x = t.fields.find((y) => y.name === invField.name);
        if (x) add(x);
      }
    }
  }
  return [];
};

function searchMessage(ctx: DirectiveContext, f: FieldDef): string {
  const t = typeName(f.type);
  const possible = Object.entries(SUPPORTED_SEARCHES)
    .filter(([name, s]) => s.gqlType === t && name !== 'hnsw')
    .map(([name]) => name)
    .sort();
  if (possible.length === 1 || ctx.types.get(t)?.kind === 'ENUM') return 'are searchable by just @search';
  if (possible.length === 0) return "can't have the @search directive";
  return `can have @search by ${possible.slice(0, -1).join(', ')} and ${possible[possible.length - 1]!}`;
}

/** `hnsw(metric: euclidean, exponent: 4)` → name and whether its options are well formed. */
function splitSearchArg(arg: string): { name: string; malformed: boolean } {
  const open = arg.indexOf('(');
  if (open < 0) return { name: arg, malformed: false };
  const name = arg.slice(0, open);
  if (!arg.endsWith(')')) return { name, malformed: true };
  const opts = arg.slice(open + 1, -1).split(',');
  const malformed = opts.some((o) => !/^\s*[A-Za-z_][\w]*: \S/.test(o));
  return { name, malformed };
}

function validateSearchArg(ctx: DirectiveContext, arg: string, d: Definition, f: FieldDef, dir: Directive): SchemaError | undefined {
  const t = typeName(f.type);
  const isEnum = ctx.types.get(t)?.kind === 'ENUM';
  const { name, malformed } = splitSearchArg(arg);
  const pre = `Type ${d.name}; Field ${f.name}:`;
  if (malformed) {
    return errorAt(
      dir.pos,
      `${pre} has the @search directive but the argument '${arg}' with search options is malformed. Search options are comma-separated key-value pairs in YAML format => <optionName><COLON><SPACE><VALUE>`,
    );
  }
  const spec = SUPPORTED_SEARCHES[name];
  if (!spec) return errorAt(dir.pos, `${pre} the argument to @search ${arg} isn't valid.Fields of type ${t} ${searchMessage(ctx, f)}.`);
  if (spec.gqlType !== t && !isEnum) {
    return errorAt(
      dir.pos,
      `${pre} has the @search directive but the argument ${arg} doesn't apply to field type ${t}.  Search by ${arg} applies to fields of type ${spec.gqlType}. Fields of type ${t} ${searchMessage(ctx, f)}.`,
    );
  }
  if (isEnum && !ENUM_SEARCHES.has(name)) {
    return errorAt(
      dir.pos,
      `${pre} has the @search directive but the argument ${arg} doesn't apply to field type ${t} which is an Enum. Enum only supports hash, exact, regexp and trigram`,
    );
  }
  if (name === 'hnsw' && !findDirective(f.directives, 'embedding')) {
    return errorAt(dir.pos, `${pre} has the @search directive but the argument ${arg} requires the field also has @embedding directive.`);
  }
  return undefined;
}

const searchValidation: DirectiveValidator = (ctx, d, f, dir) => {
  const t = typeName(f.type);
  const pred = dgraphPredArg(f);
  if (pred !== undefined && (pred.split('@')[1] ?? '').includes(':')) {
    return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: @search directive not applicable on language tag field with multiple languages`)];
  }
  const arg = findArg(dir, 'by');
  if (!arg) {
    const k = kindOf(ctx, t);
    if (k === 'ENUM' || ['Point', 'Polygon', 'MultiPolygon'].includes(t) || (k === 'SCALAR' && !isIDField(f))) return [];
    return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: has the @search directive but fields of type ${t} can't have the @search directive.`)];
  }
  if (arg.value.kind !== 'List') {
    return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: the @search directive requires a list argument, like @search(by: ["hash"])`)];
  }
  const args = arg.value.children.map((c) => c.value.raw).sort();
  const isEnum = ctx.types.get(t)?.kind === 'ENUM';
  const seen = new Map<string, string>();
  for (const a of args) {
    const e = validateSearchArg(ctx, a, d, f, dir);
    if (e) return [e];
    const index = SUPPORTED_SEARCHES[splitSearchArg(a).name]?.filter ?? a;
    const prev = seen.get(index);
    if (prev !== undefined) {
      if (t === 'String' || isEnum) {
        return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: the argument to @search '${a}' is the same as the index '${prev}' provided before and shouldn't be used together`)];
      }
      return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: has the search directive on ${t}. ${t} allows only one argument for @search.`)];
    }
    const collision = index === 'StringHashFilter' ? 'StringExactFilter' : index === 'StringExactFilter' ? 'StringHashFilter' : undefined;
    const other = collision ? seen.get(collision) : undefined;
    if (other !== undefined) {
      return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: the arguments '${a}' and '${other}' can't be used together as arguments to @search.`)];
    }
    seen.set(index, a);
  }
  return [];
};

const dgraphDirectiveValidation: DirectiveValidator = (ctx, d, f, dir) => {
  const pre = `Type ${d.name}; Field ${f.name}:`;
  if (isIDField(f)) return [errorAt(dir.pos, `${pre} has the @dgraph directive but fields of type ID can't have the @dgraph directive.`)];
  const arg = findArg(dir, 'pred');
  if (!arg || arg.value.raw === '') return [errorAt(dir.pos, `${pre} pred argument for @dgraph directive should not be empty.`)];
  if (arg.value.kind !== 'String') return [errorAt(dir.pos, `${pre} pred argument for @dgraph directive should be of type String.`)];
  const pred = arg.value.raw;
  if (isReservedKeyWord(pred)) return [errorAt(dir.pos, `${pre} pred argument '${pred}' for @dgraph directive is a reserved keyword.`)];
  if (pred.includes('@')) {
    const parts = pred.split('@');
    if (parts.length > 2) return [errorAt(dir.pos, `${pre} multiple language tag not supported`)];
    const tag = parts[1] ?? '';
    if (tag === '') return [errorAt(dir.pos, `${pre} empty language tag not supported`)];
    if (tag === '*') return [errorAt(dir.pos, `${pre} \`*\` language tag not supported in GraphQL`)];
    if (typeName(f.type) !== 'String') {
      return [errorAt(f.pos, `${pre} Expected type \`String\` for language tag field but got \`${typeString(f.type)}\``)];
    }
  }
  if (!(pred.startsWith('~') || pred.startsWith('<~'))) return [];
  if (d.kind === 'INTERFACE') return [];
  if (findDirective(f.directives, 'hasInverse')) {
    return [errorAt(dir.pos, `${pre} @hasInverse directive is not allowed when pred argument in @dgraph directive starts with a ~.`)];
  }
  const forward = pred.replace(/^[<~>]+|[<~>]+$/g, '');
  const invTypeName = typeName(f.type);
  const invType = ctx.types.get(invTypeName);
  if (invType?.kind !== 'OBJECT' && invType?.kind !== 'INTERFACE') {
    return [errorAt(f.pos, `Type ${d.name}; Field ${f.name} is of type ${invTypeName}, but reverse predicate in @dgraph directive only applies to fields with object types.`)];
  }
  if (f.type.name !== undefined) return [errorAt(dir.pos, `${pre} with a dgraph directive that starts with ~ should be of type list.`)];
  for (const fld of invType.fields) {
    const fdir = findDirective(fld.directives, 'dgraph');
    const p = findArg(fdir, 'pred')?.value.raw;
    if (!p || p !== forward) continue;
    const possible = [d.name, ...d.interfaces];
    if (!possible.includes(typeName(fld.type))) {
      const msg = possible.length === 1 ? `of type ${possible[0]!}` : `any of types ${possible.slice(0, -1).join(', ')} or ${possible[possible.length - 1]!}`;
      return [errorAt(fdir?.pos, `Type ${invTypeName}; Field ${fld.name}: should be ${msg} to be compatible with @dgraph reverse directive but is of type ${typeName(fld.type)}.`)];
    }
    if (findDirective(fld.directives, 'hasInverse')) {
      return [errorAt(fdir?.pos, `Type ${invTypeName}; Field ${fld.name}: @hasInverse directive is not allowed because field is forward edge of another field with reverse directive.`)];
    }
    return [];
  }
  return [errorAt(dir.pos, `${pre} pred argument: ${pred} is not supported as forward edge doesn't exist for type ${invTypeName}.`)];
};

const idValidation: DirectiveValidator = (ctx, d, f, dir) => {
  const pre = `Type ${d.name}; Field ${f.name}:`;
  const pred = dgraphPredArg(f);
  if (pred?.includes('@')) return [errorAt(dir.pos, `${pre} @id directive not supported on language tag fields`)];
  if (f.type.name === undefined || !['String', 'Int', 'Int64'].includes(f.type.name)) {
    return [errorAt(dir.pos, `${pre} with @id directive must be of type String, Int or Int64, not ${typeString(f.type)}`)];
  }
  if (findArg(dir, 'interface') && d.kind !== 'INTERFACE' && !parentInterface(ctx, d, f.name)) {
    return [errorAt(dir.pos, `${pre} @id field with interface argument can only be defined in interface,not in Type`)];
  }
  return [];
};

function validDefault(ctx: DirectiveContext, t: string, v: string): boolean {
  if (v === '$now') return t === 'DateTime';
  switch (t) {
    case 'Int':
    case 'Int64':
      return /^[-+]?\d+$/.test(v);
    case 'Float':
      return v.trim() !== '' && !Number.isNaN(Number(v));
    case 'Boolean':
      return ['true', 'false', '1', '0', 't', 'f', 'TRUE', 'FALSE', 'True', 'False', 'T', 'F'].includes(v);
    case 'DateTime':
      return !Number.isNaN(Date.parse(v));
    default: {
      const e = ctx.types.get(t);
      return e?.kind === 'ENUM' ? e.enumValues.some((x) => x.name === v) : true;
    }
  }
}

const defaultValidation: DirectiveValidator = (ctx, d, f, dir) => {
  const pre = `Type ${d.name}; Field ${f.name}:`;
  const t = typeName(f.type);
  if (isRemote(d)) return [errorAt(dir.pos, `${pre} cannot use @default directive on a @remote type`)];
  if (kindOf(ctx, t) !== 'SCALAR' && kindOf(ctx, t) !== 'ENUM') return [errorAt(dir.pos, `${pre} cannot use @default directive on field with non-scalar type ${t}`)];
  if (f.type.name === undefined) return [errorAt(dir.pos, `${pre} cannot use @default directive on field with list type ${typeString(f.type)}`)];
  if (hasIDDirective(f)) return [errorAt(dir.pos, `${pre} cannot use @default directive on field with @id directive`)];
  if (isIDField(f)) return [errorAt(dir.pos, `${pre} cannot use @default directive on field with type ID`)];
  if (findDirective(f.directives, 'custom')) return [errorAt(dir.pos, `${pre} cannot use @default directive on field with @custom directive`)];
  if (findDirective(f.directives, 'lambda')) return [errorAt(dir.pos, `${pre} cannot use @default directive on field with @lambda directive`)];
  for (const a of dir.args) {
    const v = findChild(a.value, 'value')?.value.raw;
    if (v !== undefined && !validDefault(ctx, t, v)) {
      return [errorAt(dir.pos, `${pre} @default directive provides value "${v}" which cannot be used with ${t}`)];
    }
  }
  return [];
};

const embeddingValidation: DirectiveValidator = (_ctx, d, f) => {
  const ok = f.type.elem !== undefined && f.type.elem.name === 'Float' && f.type.elem.nonNull;
  if (ok) return [];
  return [
    errorAt(
      f.pos,
      `Type ${d.name}; Field ${f.name}: The field with @embedding directive is of type ${typeString(f.type)}, but @embedding directive only applies to fields of type [Float!].`,
    ),
  ];
};

const isExtended = (d: Definition): boolean => d.extension || findDirective(d.directives, 'extends') !== undefined;
const isKeyField = (f: FieldDef, d: Definition): boolean => {
  const raw = findArg(findDirective(d.directives, 'key'), 'fields')?.value.raw;
  return raw !== undefined && raw.split(/\s+/).includes(f.name);
};

const externalValidation: DirectiveValidator = (_ctx, d, f, dir) => {
  if (!isExtended(d)) {
    return [errorAt(dir.pos, `Type ${d.name}: Field ${f.name}: @external directive can only be defined on fields in type extensions. i.e., the type must have \`@extends\` or use \`extend\` keyword.`)];
  }
  if (isCustomOrLambda(f)) {
    return [errorAt(dir.pos, `Type ${d.name}: Field ${f.name}: @external directive can not be defined on  fields with @custom or @lambda directive.`)];
  }
  if (!isKeyField(f, d)) {
    for (const n of ['hasInverse', 'search', 'dgraph', 'id']) {
      const x = findDirective(f.directives, n);
      if (x) return [errorAt(x.pos, `Type ${d.name}: Field ${f.name}: @${n} directive can not be defined on @external fields that are not @key.`)];
    }
  }
  return [];
};

const requiresValidation: DirectiveValidator = (_ctx, d, f, dir) => {
  if (!isExtended(d)) {
    return [errorAt(dir.pos, `Type ${d.name}: Field ${f.name}: @requires directive can only be defined on fields in type extensions. i.e., the type must have \`@extends\` or use \`extend\` keyword.`)];
  }
  const raw = findArg(dir, 'fields')?.value.raw ?? '';
  if (raw === '') return [errorAt(dir.pos, `Type ${d.name}; Argument fields inside @requires directive must be defined.`)];
  for (const name of raw.split(/\s+/).filter((x) => x !== '')) {
    const fd = d.fields.find((x) => x.name === name);
    if (!fd) return [errorAt(dir.pos, `Type ${d.name}; @requires directive uses a field ${name} which is not defined inside the type.`)];
    if (!findDirective(fd.directives, 'external')) return [errorAt(dir.pos, `Type ${d.name}; Field ${name} must be @external.`)];
  }
  return [];
};

const providesValidation: DirectiveValidator = (ctx, d, f, dir) => {
  const target = ctx.types.get(typeName(f.type));
  if (!findDirective(target?.directives ?? [], 'key')) return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name} does not return a type that has a @key.`)];
  const raw = findArg(dir, 'fields')?.value.raw ?? '';
  if (raw === '') return [errorAt(dir.pos, `Type ${d.name}; Argument fields inside @provides directive must be defined.`)];
  for (const name of raw.split(/\s+/).filter((x) => x !== '')) {
    if (!target?.fields.some((x) => x.name === name)) {
      return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: @provides field ${name} doesn't exist for type ${target?.name ?? ''}.`)];
    }
  }
  return [];
};

const remoteResponseValidation: DirectiveValidator = (_ctx, d, f, dir) => {
  if (!isRemote(d)) return [errorAt(dir.pos, `Type ${d.name}: Field ${f.name}: @remoteResponse directive can only be defined on fields of @remote type.`)];
  const v = findArg(dir, 'name')?.value.raw ?? '';
  if (v === '') return [errorAt(dir.pos, `Type ${d.name}: Field ${f.name}: Argument name inside @remoteResponse directive must be defined.`)];
  return [];
};

const noop: DirectiveValidator = () => [];

export const DIRECTIVE_VALIDATORS: Readonly<Record<string, DirectiveValidator>> = {
  hasInverse: hasInverseValidation,
  search: searchValidation,
  dgraph: dgraphDirectiveValidation,
  id: idValidation,
  withSubscription: noop,
  custom: customDirectiveValidation,
  lambda: lambdaDirectiveValidation,
  default: defaultValidation,
  embedding: embeddingValidation,
  external: externalValidation,
  requires: requiresValidation,
  provides: providesValidation,
  remoteResponse: remoteResponseValidation,
};
