// `@custom` / `@lambda` validation (REFERENCE §8.1, §9.3), in Dgraph's numbered order. Remote
// introspection of `graphql:` endpoints is a later, asynchronous step and not done here.
import { GraphQLError, Kind, parse, parseValue } from 'graphql';
import type { DocumentNode, OperationDefinitionNode, ValueNode } from 'graphql';
import type { SchemaError } from '../../api.js';
import type { Definition, Directive, FieldDef, Pos, Value } from '../sdl-ast.js';
import { findArg, findChild, findDirective, typeName } from '../sdl-ast.js';
import { hasIDDirective, isCustomOrLambda, isIDField, isQueryOrMutation } from '../helpers.js';
import { INBUILT_TYPES } from '../search-table.js';
import { printValue } from '../print-schema.js';
import { errorAt } from './errors.js';
import type { DirectiveValidator } from './directive-rules.js';

const isScalar = (name: string): boolean => name in INBUILT_TYPES;

/** The body template `@lambda` stands for: root fields send their arguments, type fields their scalar fields. */
export function lambdaBodyTemplate(d: Definition, f: FieldDef): string {
  const names = isQueryOrMutation(d.name)
    ? f.args.map((a) => a.name)
    : d.fields.filter((x) => !isCustomOrLambda(x) && isScalar(typeName(x.type))).map((x) => x.name);
  return `{${names.map((n) => `${n}: $${n}`).join(', ')}}`;
}

/** Variables a body template requires; throws a message for unparsable/unsupported templates. */
export function parseBodyTemplate(body: string, strict: boolean): Set<string> {
  const required = new Set<string>();
  if (body.trim() === '') return required;
  let node: ValueNode;
  try {
    node = parseValue(body);
  } catch (e) {
    throw new Error(e instanceof GraphQLError ? e.message.replace(/^Syntax Error: /, '').replace(/\.$/, '') : String(e));
  }
  const walk = (v: ValueNode): void => {
    switch (v.kind) {
      case Kind.VARIABLE:
        required.add(v.name.value);
        return;
      case Kind.OBJECT:
        for (const f of v.fields) walk(f.value);
        return;
      case Kind.LIST:
        for (const x of v.values) walk(x);
        return;
      case Kind.ENUM:
        if (strict) throw new Error(`found unexpected value: ${v.value}`);
        return;
      case Kind.STRING:
        if (strict && v.block === true) throw new Error(`found unexpected value: ${v.value}`);
        return;
      default:
        return;
    }
  };
  walk(node);
  return required;
}

interface UrlVar {
  readonly name: string;
  readonly location: 'path' | 'query';
}

/** Go's url.ParseRequestURI: an absolute URL or an absolute path. */
function parseRequestUri(raw: string): URL | undefined {
  try {
    if (raw.startsWith('/')) return new URL(raw, 'http://placeholder');
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw)) return undefined;
    return new URL(raw);
  } catch {
    return undefined;
  }
}

function urlVars(u: URL): UrlVar[] {
  const out: UrlVar[] = [];
  for (const seg of u.pathname.split('/')) if (seg.startsWith('$')) out.push({ name: decodeURIComponent(seg.slice(1)), location: 'path' });
  for (const [, v] of u.searchParams) if (v.startsWith('$')) out.push({ name: v.slice(1), location: 'query' });
  return out;
}

function pos(v: Value | undefined, fallback: Pos | undefined): Pos | undefined {
  return v?.pos ?? fallback;
}

function validateCustom(d: Definition, f: FieldDef, dir: Directive, types: ReadonlyMap<string, Definition>): SchemaError[] {
  const errs: SchemaError[] = [];
  const T = d.name;
  const F = f.name;
  const isRoot = d.kind === 'OBJECT' && isQueryOrMutation(d.name);
  // 1. the directive itself
  if (findDirective(f.directives, 'search')) errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; custom directive not allowed along with @search directive.`));
  if (findDirective(f.directives, 'dgraph')) errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; custom directive not allowed along with @dgraph directive.`));
  const defn = types.get(T) ?? d;
  const idField = defn.fields.find(isIDField);
  const xidField = defn.fields.find(hasIDDirective);
  if (!isRoot && !idField && !xidField) {
    errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; @custom directive is only allowed on fields where the type definition has a field with type ID! or a field with @id directive.`));
  }
  // 2. its arguments
  const n = dir.args.length;
  if (n !== 1) {
    errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}: has ${n} arguments for @custom directive, it should contain exactly one of \`http\` or \`dql\` arguments.`));
  }
  const httpArg = findArg(dir, 'http');
  const dqlArg = findArg(dir, 'dql');
  if (!httpArg && !dqlArg) {
    errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}: one of \`http\` or \`dql\` arguments must be present for @custom directive.`));
    return errs;
  }
  // 3.1 dql
  if (dqlArg) {
    if (T !== 'Query') errs.push(errorAt(dqlArg.pos, `Type ${T}; Field ${F}: @custom directive with \`dql\` can be used only on queries.`));
    if (dqlArg.value.kind !== 'String' && dqlArg.value.kind !== 'Block') {
      errs.push(errorAt(dqlArg.pos, `Type ${T}; Field ${F}: dql argument for @custom directive must be of type String.`));
    }
    if (dqlArg.value.raw.trim() === '') errs.push(errorAt(dqlArg.pos, `Type ${T}; Field ${F}: dql argument for @custom directive must not be empty.`));
    for (const a of f.args) {
      if (a.type.name === undefined || !isScalar(typeName(a.type))) {
        errs.push(errorAt(dqlArg.pos, `Type ${T}; Field ${F}: Argument ${a.name}: must be of a scalar type. @custom DQL queries accept only scalar arguments.`));
      }
    }
    return errs;
  }
  if (!httpArg) return errs;
  // 3.2 http
  if (printValue(httpArg.value) === '') {
    errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}: http argument for @custom directive should not be empty.`));
    return errs;
  }
  if (httpArg.value.kind !== 'Object') errs.push(errorAt(httpArg.pos, `Type ${T}; Field ${F}: http argument for @custom directive should be of type Object.`));
  const child = (k: string): Value | undefined => findChild(httpArg.value, k)?.value;
  // 4. url
  const url = child('url');
  if (!url) {
    errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; url field inside @custom directive is mandatory.`));
    return errs;
  }
  const parsed = parseRequestUri(url.raw);
  if (!parsed) {
    errs.push(errorAt(pos(url, dir.pos), `Type ${T}; Field ${F}; url field inside @custom directive is invalid.`));
    return errs;
  }
  const vars = urlVars(parsed);
  const urlHasParams = vars.length > 0;
  for (const v of vars) {
    if (!isRoot) {
      const fd = defn.fields.find((x) => x.name === v.name);
      if (!fd) {
        errs.push(errorAt(pos(url, dir.pos), `Type ${T}; Field ${F}; url ${v.location} inside @custom directive uses a field ${v.name} that is not defined.`));
        continue;
      }
      if (v.location === 'path' && !fd.type.nonNull) {
        errs.push(errorAt(pos(url, dir.pos), `Type ${T}; Field ${F}; url ${v.location} inside @custom directive uses a field ${v.name} that can be null.`));
      }
    } else {
      const a = f.args.find((x) => x.name === v.name);
      if (!a) {
        errs.push(errorAt(pos(url, dir.pos), `Type ${T}; Field ${F}; url ${v.location} inside @custom directive uses an argument ${v.name} that is not defined.`));
        continue;
      }
      if (v.location === 'path' && !a.type.nonNull) {
        errs.push(errorAt(pos(url, dir.pos), `Type ${T}; Field ${F}; url ${v.location} inside @custom directive uses an argument ${v.name} that can be null.`));
      }
    }
  }
  // 5. method
  const method = child('method');
  if (!method) errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; method field inside @custom directive is mandatory.`));
  else if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method.raw)) {
    errs.push(errorAt(pos(method, dir.pos), `Type ${T}; Field ${F}; method field inside @custom directive can only be GET/POST/PUT/PATCH/DELETE.`));
  }
  // 6. mode
  const mode = child('mode');
  let isBatch = false;
  if (mode) {
    if (isRoot) errs.push(errorAt(pos(mode, dir.pos), `Type ${T}; Field ${F}; mode field inside @custom directive can't be present on Query/Mutation.`));
    if (mode.raw !== 'SINGLE' && mode.raw !== 'BATCH') errs.push(errorAt(pos(mode, dir.pos), `Type ${T}; Field ${F}; mode field inside @custom directive can only be SINGLE/BATCH.`));
    isBatch = mode.raw === 'BATCH';
    if (isBatch && urlHasParams) {
      errs.push(errorAt(pos(url, dir.pos), `Type ${T}; Field ${F}; has parameters in url inside @custom directive while mode is BATCH, url can't contain parameters if mode is BATCH.`));
    }
  }
  // 7. graphql with url params, method and body
  const body = child('body');
  const graphql = child('graphql');
  if (graphql) {
    if (urlHasParams) errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; has parameters in url along with graphql field inside @custom directive, url can't contain parameters if graphql field is present.`));
    if (method?.raw !== 'POST') errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; has method ${method?.raw ?? ''} while graphql field is also present inside @custom directive, method can only be POST if graphql field is present.`));
    if (!isBatch && body) errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; has both body and graphql field inside @custom directive, they can't be present together.`));
    if (isBatch && !body) errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; both body and graphql field inside @custom directive are required if mode is BATCH.`));
  }
  // 8. body
  let required = new Set<string>();
  if (body) {
    try {
      required = parseBodyTemplate(body.raw, graphql === undefined);
    } catch (e) {
      errs.push(errorAt(pos(body, dir.pos), `Type ${T}; Field ${F}; body template inside @custom directive could not be parsed: ${(e as Error).message}`));
    }
    if (isRoot) {
      for (const name of required) {
        if (!f.args.some((a) => a.name === name)) {
          errs.push(errorAt(pos(body, dir.pos), `Type ${T}; Field ${F}; body template inside @custom directive uses an argument ${name} that is not defined.`));
        }
      }
    }
  }
  // 9. graphql
  if (graphql) {
    const r = validateGraphqlArg(T, F, graphql, pos(graphql, dir.pos), isRoot, isBatch, f);
    errs.push(...r.errors);
    if (r.stop) return errs;
    if (r.variables && !isRoot && !isBatch) required = r.variables;
  }
  // 10. required fields of type fields
  if (!isRoot) {
    if (f.name === idField?.name || f.name === xidField?.name) {
      errs.push(errorAt(dir.pos, `Type ${T}; Field ${F}; custom directive not allowed on field of type ID! or field with @id directive.`));
    }
    if (body || graphql) {
      const at = body ? pos(body, dir.pos) : pos(graphql, dir.pos);
      const where = body ? 'body template' : 'graphql';
      let requiresId = false;
      for (const name of required) {
        if (name === f.name) errs.push(errorAt(at, `Type ${T}; Field ${F}; @custom directive, ${where} can't require itself.`));
        const fd = d.fields.find((x) => x.name === name);
        if (!fd) {
          errs.push(errorAt(at, `Type ${T}; Field ${F}; @custom directive, ${where} must use fields defined within the type, found \`${name}\`.`));
          continue;
        }
        const tn = typeName(fd.type);
        if (!isScalar(tn)) errs.push(errorAt(at, `Type ${T}; Field ${F}; @custom directive, ${where} must use scalar fields, found field \`${name}\` of type \`${tn}\`.`));
        if (isCustomOrLambda(fd)) {
          errs.push(errorAt(at, `Type ${T}; Field ${F}; @custom directive, ${where} can't use another field with @custom/@lambda directive, found field \`${name}\` with @custom/@lambda.`));
        }
        if (name === idField?.name || name === xidField?.name) requiresId = true;
      }
      if (!requiresId) errs.push(errorAt(at, `Type ${T}; Field ${F}: @custom directive, ${where} must use a field with type ID! or a field with @id directive.`));
    }
  }
  // 12. headers (introspection itself happens later, asynchronously)
  if (body || graphql) {
    const at = body ? pos(body, dir.pos) : pos(graphql, dir.pos);
    const si = child('skipIntrospection');
    if (si && !['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'].includes(si.raw)) {
      errs.push(errorAt(at, `Type ${T}; Field ${F}; skipIntrospection in @custom directive can only be true/false, found: \`${si.raw}\`.`));
    }
    const forwarded = new Set<string>();
    for (const h of child('forwardHeaders')?.children ?? []) {
      const key = h.value.raw.split(':');
      if (key.length > 2) return [...errs, headerFormatError(at, T, F, 'forwardHeaders', h.value.raw)];
      forwarded.add(key[0]!);
    }
    for (const h of child('secretHeaders')?.children ?? []) {
      const key = h.value.raw.split(':');
      if (key.length > 2) return [...errs, headerFormatError(at, T, F, 'secretHeaders', h.value.raw)];
      if (forwarded.has(key[0]!)) {
        return [...errs, errorAt(at, `Type ${T}; Field ${F}; secretHeaders and forwardHeaders in @custom directive cannot have overlapping headers, found: \`${h.value.raw}\`.`)];
      }
    }
    for (const h of child('introspectionHeaders')?.children ?? []) {
      if (h.value.raw.split(':').length > 2) return [...errs, headerFormatError(at, T, F, 'introspectionHeaders', h.value.raw)];
    }
  }
  return errs;
}

function headerFormatError(at: Pos | undefined, T: string, F: string, what: string, h: string): SchemaError {
  return errorAt(at, `Type ${T}; Field ${F}; ${what} in @custom directive should be of the form 'remote_headername:local_headername' or just 'headername', found: \`${h}\`.`);
}

interface GraphqlCheck {
  readonly errors: SchemaError[];
  readonly stop: boolean;
  readonly variables?: Set<string>;
}

function validateGraphqlArg(T: string, F: string, graphql: Value, at: Pos | undefined, isRoot: boolean, isBatch: boolean, f: FieldDef): GraphqlCheck {
  const errs: SchemaError[] = [];
  const pre = `Type ${T}; Field ${F}: inside graphql in @custom directive,`;
  let doc: Pick<DocumentNode, 'definitions'>;
  try {
    doc = graphql.raw.trim() === '' ? { definitions: [] } : parse(graphql.raw);
  } catch (e) {
    const msg = e instanceof GraphQLError ? e.message.replace(/^Syntax Error: /, '').replace(/\.$/, '').replace(/found "([^"\w]+)"$/, 'found $1') : String(e);
    return { errors: [errorAt(at, `Type ${T}; Field ${F}: unable to parse graphql in @custom directive because: ${msg}`)], stop: true };
  }
  const ops = doc.definitions.filter((x): x is OperationDefinitionNode => x.kind === Kind.OPERATION_DEFINITION);
  if (ops.length !== 1) return { errors: [errorAt(at, `${pre} found ${ops.length} operations, it can have exactly one operation.`)], stop: true };
  const op = ops[0]!;
  if (op.operation !== 'query' && op.operation !== 'mutation') errs.push(errorAt(at, `${pre} found \`${op.operation}\` operation, it can only have query/mutation.`));
  if (op.name) errs.push(errorAt(at, `${pre} found operation with name \`${op.name.value}\`, it can't have a name.`));
  const varDefs = (op.variableDefinitions ?? []).map((v) => v.variable.name.value);
  let variables: Set<string> | undefined;
  if (varDefs.length > 0) {
    if (isRoot) {
      for (const v of varDefs) {
        if (!f.args.some((a) => a.name === v)) {
          errs.push(errorAt(at, `Type ${T}; Field ${F}; @custom directive, graphql variables must use fields defined within the type, found \`${v}\`.`));
        }
      }
    } else if (!isBatch) {
      variables = new Set(varDefs);
    }
  }
  if ((op.directives ?? []).length > 0) errs.push(errorAt(at, `${pre} found operation with directives, it can't have any directives.`));
  const sels = op.selectionSet.selections;
  if (sels.length !== 1) errs.push(errorAt(at, `${pre} found ${sels.length} fields inside operation \`${op.operation}\`, it can have exactly one field.`));
  const q = sels[0];
  if (q?.kind !== Kind.FIELD) return variables ? { errors: errs, stop: false, variables } : { errors: errs, stop: false };
  const name = q.name.value;
  if (q.alias && q.alias.value !== name) errs.push(errorAt(at, `${pre} found ${op.operation} \`${name}\` with alias \`${q.alias.value}\`, it can't have any alias.`));
  if ((q.directives ?? []).length > 0) errs.push(errorAt(at, `${pre} found ${op.operation} \`${name}\` with directives, it can't have any directives.`));
  if (q.selectionSet && q.selectionSet.selections.length > 0) {
    errs.push(errorAt(at, `${pre} found ${op.operation} \`${name}\` with a selection set, it can't have any selection set.`));
  }
  const args = q.arguments ?? [];
  if (args.length > 0) {
    if (isBatch) {
      const first = args[0]!;
      if (args.length !== 1 || first.value.kind !== Kind.VARIABLE) {
        errs.push(errorAt(at, `${pre} for BATCH mode, ${op.operation} \`${name}\` can have only one argument whose value should be a variable.`));
        return { errors: errs, stop: true };
      }
      const v = first.value.name.value;
      if (!varDefs.includes(v)) errs.push(errorAt(at, `Type ${T}; Field ${F}; @custom directive, graphql must use fields with a variable definition, found \`${v}\`.`));
    } else {
      const used = new Set<string>();
      const walk = (v: ValueNode): void => {
        if (v.kind === Kind.VARIABLE) used.add(v.name.value);
        else if (v.kind === Kind.OBJECT) v.fields.forEach((x) => walk(x.value));
        else if (v.kind === Kind.LIST) v.values.forEach(walk);
      };
      args.forEach((a) => walk(a.value));
      for (const v of used) {
        if (!varDefs.includes(v)) errs.push(errorAt(at, `Type ${T}; Field ${F}; @custom directive, graphql must use fields with a variable definition, found \`${v}\`.`));
      }
    }
  }
  return variables ? { errors: errs, stop: false, variables } : { errors: errs, stop: false };
}

export const customDirectiveValidation: DirectiveValidator = (ctx, d, f, dir) => validateCustom(d, f, dir, ctx.types);

export const lambdaDirectiveValidation: DirectiveValidator = (ctx, d, f, dir) => {
  if (!ctx.lambdaUrl) {
    return [errorAt(dir.pos, `Type ${d.name}; Field ${f.name}: has the @lambda directive, but the --lambda-url flag wasn't specified during startup.`)];
  }
  const v = (raw: string, kind: Value['kind'] = 'String'): Value => ({ kind, raw, children: [], pos: dir.pos });
  const children = [
    { name: 'url', value: v(ctx.lambdaUrl) },
    { name: 'method', value: v('POST', 'Enum') },
    { name: 'body', value: v(lambdaBodyTemplate(d, f)) },
  ];
  if (!(d.kind === 'OBJECT' && isQueryOrMutation(d.name))) children.push({ name: 'mode', value: v('BATCH', 'Enum') });
  const custom: Directive = { name: 'custom', args: [{ name: 'http', value: { kind: 'Object', raw: '', children, pos: dir.pos }, pos: dir.pos }], pos: dir.pos };
  return validateCustom(d, f, custom, ctx.types).map((e) => ({ ...e, message: `While building @custom for @lambda: ${e.message}` }));
};
