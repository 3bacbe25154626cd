// Schema upload, asynchronous step: for every `@custom(http: {graphql: ...})` without
// `skipIntrospection: true`, introspect the remote endpoint and check the operation against it
// (REFERENCE §8.1, messages §9.3). compileSchema stays synchronous; the facade awaits this before deploying.

import { Kind, parse, type FieldNode, type OperationDefinitionNode, type ValueNode } from 'graphql';
import type { SchemaError } from '../api.js';
import type { CompiledSchema } from '../schema/compile-schema.js';
import { parseSdl } from '../schema/parse-sdl.js';
import { findArg, findChild, findDirective, typeString, type Definition, type FieldDef, type Pos, type TypeRef } from '../schema/sdl-ast.js';
import { sendCall } from './http-client.js';
import { goJson, goJsonError } from './go-json.js';
import type { SelfAddress } from './address-guard.js';
import type { CallLimits } from './outbound.js';

export interface IntrospectionOptions {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly denyPrivate: boolean;
  /** The service's own listening address and port (refused). */
  readonly self?: SelfAddress;
}

interface RemoteType {
  readonly kind: string;
  readonly name: string | null;
  readonly ofType?: RemoteType | null;
}
interface RemoteField {
  readonly name: string;
  readonly type: RemoteType;
  readonly args?: readonly RemoteField[] | null;
}
interface RemoteTypeDef {
  readonly kind: string;
  readonly name: string;
  readonly fields?: readonly RemoteField[] | null;
  readonly inputFields?: readonly RemoteField[] | null;
}
interface Introspection {
  readonly data?: { readonly __schema?: { queryType?: { name: string } | null; mutationType?: { name: string } | null; types?: readonly RemoteTypeDef[] | null } };
}

class RemoteMismatch extends Error {}
const mismatch = (message: string): RemoteMismatch => new RemoteMismatch(message);

const specScalars = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);

const introspectionQuery = `
  query {
    __schema {
      queryType { name }
      mutationType { name }
      subscriptionType { name }
      types { ...FullType }
      directives { name locations args { ...InputValue } }
    }
  }
  fragment FullType on __Type {
    kind
    name
    fields(includeDeprecated: true) { name args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
    inputFields { ...InputValue }
    interfaces { ...TypeRef }
    enumValues(includeDeprecated: true) { name isDeprecated deprecationReason }
    possibleTypes { ...TypeRef }
  }
  fragment InputValue on __InputValue { name type { ...TypeRef } defaultValue }
  fragment TypeRef on __Type {
    kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
  }
`;

/** Errors (in schema order) of the remote checks; empty when every remote endpoint agrees. */
export async function validateRemoteGraphql(compiled: CompiledSchema, options: IntrospectionOptions): Promise<SchemaError[]> {
  const parsed = parseSdl(compiled.sdl);
  if (!parsed.ok) return [];
  const defs = parsed.definitions;
  const checks: Promise<SchemaError | undefined>[] = [];
  for (const def of defs) {
    if (def.kind !== 'OBJECT' && def.kind !== 'INTERFACE') continue;
    for (const field of def.fields) {
      const dir = findDirective(field.directives, 'custom');
      const http = findArg(dir, 'http')?.value;
      const graphql = findChild(http, 'graphql')?.value;
      if (dir === undefined || http === undefined || graphql === undefined) continue;
      if (findChild(http, 'skipIntrospection')?.value.raw === 'true') continue;
      const at = graphql.pos ?? dir.pos;
      const check = checkField(compiled, defs, def, field, {
        url: findChild(http, 'url')?.value.raw ?? '',
        graphql: graphql.raw,
        batch: findChild(http, 'mode')?.value.raw === 'BATCH',
        headers: (findChild(http, 'introspectionHeaders')?.value.children ?? []).map((c) => c.value.raw),
      }, options).then(
        (message) => (message === undefined ? undefined : located(`Type ${def.name}; Field ${field.name}: inside graphql in @custom directive, ${message}`, at)),
      );
      checks.push(check);
    }
  }
  return (await Promise.all(checks)).filter((e): e is SchemaError => e !== undefined);
}

function located(message: string, at: Pos | undefined): SchemaError {
  return at === undefined ? { message } : { message, locations: [{ line: at.line, column: at.column }] };
}

interface HttpArgs {
  readonly url: string;
  readonly graphql: string;
  readonly batch: boolean;
  readonly headers: readonly string[];
}

async function checkField(
  compiled: CompiledSchema,
  defs: readonly Definition[],
  parent: Definition,
  field: FieldDef,
  http: HttpArgs,
  options: IntrospectionOptions,
): Promise<string | undefined> {
  if (http.url.includes('?')) return `POST method cannot have query parameters in url: ${http.url}`;
  const headers: [string, string][] = [['Content-Type', 'application/json']];
  for (const entry of http.headers) {
    const [name = '', secret = name] = entry.split(':');
    headers.push([name, compiled.model.secrets.get(secret) ?? '']);
  }
  const limits: CallLimits = {
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    maxConcurrency: 1,
    denyPrivate: options.denyPrivate,
    ...(options.self === undefined ? {} : { self: options.self }),
  };
  const outcome = await sendCall({ url: http.url, method: 'POST', headers, body: goJson({ query: introspectionQuery }) }, limits);
  if (!outcome.ok) return outcome.error;
  let result: Introspection;
  try {
    result = JSON.parse(outcome.body) as Introspection;
  } catch {
    return `while json unmarshaling result from remote introspection query: ${goJsonError(outcome.body)}`;
  }
  try {
    checkOperation(result, defs, parent, field, http);
    return undefined;
  } catch (error) {
    if (error instanceof RemoteMismatch) return error.message;
    throw error;
  }
}

function remoteTypeString(t: RemoteType | null | undefined): string {
  if (t === null || t === undefined) return '';
  if (t.kind === 'LIST') return `[${remoteTypeString(t.ofType)}]`;
  if (t.kind === 'NON_NULL') return `${remoteTypeString(t.ofType)}!`;
  return t.name ?? '';
}

function namedType(t: RemoteType): string {
  return t.name ?? (t.ofType ? namedType(t.ofType) : '');
}

function checkOperation(result: Introspection, defs: readonly Definition[], parent: Definition, field: FieldDef, http: HttpArgs): void {
  const schema = result.data?.__schema;
  const op = parse(http.graphql).definitions[0] as OperationDefinitionNode;
  const operation = op.operation;
  let rootName: string;
  if (operation === 'query') {
    if (!schema?.queryType) throw mismatch("remote schema doesn't have any queries.");
    rootName = schema.queryType.name;
  } else {
    if (!schema?.mutationType) throw mismatch("remote schema doesn't have any mutations.");
    rootName = schema.mutationType.name;
  }
  const remoteTypes = new Map((schema.types ?? []).map((t) => [t.name, t]));
  const root = remoteTypes.get(rootName);
  if (root === undefined) throw missingType(rootName);
  const given = op.selectionSet.selections[0] as FieldNode;
  const remote = (root.fields ?? []).find((f) => f.name === given.name.value);
  if (remote === undefined) throw mismatch(`${operation} \`${given.name.value}\` is not present in remote schema.`);
  let expected = typeString(field.type);
  if (http.batch) expected = `[${expected}]`;
  const got = remoteTypeString(remote.type);
  if (expected !== got) throw mismatch(`found return type mismatch for ${operation} \`${given.name.value}\`, expected \`${expected}\`, got \`${got}\`.`);
  matchDeepTypes(remote.type, remoteTypes, defs);

  const args = remote.args ?? [];
  if (http.batch) {
    if (args.length !== 1) {
      throw mismatch(
        `remote ${operation} \`${given.name.value}\` accepts ${args.length} arguments, It must have only one argument of the form \`[{param1: $var1, param2: $var2, ...}]\` for BATCH mode.`,
      );
    }
    const arg = args[0] as RemoteField;
    if (!isListOfInputObject(arg.type)) {
      throw mismatch(
        `argument \`${arg.name}\` for given ${operation} \`${given.name.value}\` must be of the form \`[{param1: $var1, param2: $var2, ...}]\` for BATCH mode in remote ${operation}.`,
      );
    }
    const inputName = namedType(arg.type);
    const input = remoteTypes.get(inputName);
    if (input === undefined) throw missingType(inputName);
    if (input.kind !== 'INPUT_OBJECT') throw mismatch(`type ${inputName} in remote schema is not an INPUT_OBJECT.`);
    return;
  }
  const varTypes = new Map<string, TypeRef>();
  if (parent.name === 'Query' || parent.name === 'Mutation') for (const a of field.args) varTypes.set(a.name, a.type);
  else for (const f of parent.fields) varTypes.set(f.name, f.type);
  matchArgs(
    (given.arguments ?? []).map((a) => [a.name.value, a.value] as const),
    varTypes,
    args,
    remoteTypes,
    defs,
    operation,
    given.name.value,
  );
}

function isListOfInputObject(t: RemoteType): boolean {
  const list: RemoteType | null | undefined = t.kind === 'NON_NULL' ? t.ofType : t;
  if (list?.kind !== 'LIST') return false;
  let item = list.ofType;
  if (item?.kind === 'NON_NULL') item = item.ofType;
  return item?.kind === 'INPUT_OBJECT';
}

const missingType = (name: string): RemoteMismatch => mismatch(`remote schema doesn't have any type named ${name}.`);

function matchDeepTypes(remote: RemoteType, remoteTypes: ReadonlyMap<string, RemoteTypeDef>, defs: readonly Definition[]): void {
  if (specScalars.has(namedType(remote))) return;
  expand(namedType(remote), remoteTypes, new Set());
  for (const def of defs) {
    if (findDirective(def.directives, 'remote') === undefined) continue;
    const remoteDef = remoteTypes.get(def.name);
    if (remoteDef === undefined) throw mismatch(`Unable to find local type ${def.name} in the remote schema`);
    const remoteFields = remoteDef.fields ?? remoteDef.inputFields ?? [];
    for (const local of def.fields) {
      const rf = remoteFields.find((f) => f.name === local.name);
      if (rf === undefined) throw mismatch(`${local.name} field for the local type ${def.name} is not present in the remote type ${remoteDef.name}`);
      if (remoteTypeString(rf.type) !== typeString(local.type)) {
        throw mismatch(`expected type for the field ${rf.name} is ${remoteTypeString(rf.type)} but got ${typeString(local.type)} in type ${def.name}`);
      }
    }
  }
}

function expand(name: string, remoteTypes: ReadonlyMap<string, RemoteTypeDef>, seen: Set<string>): void {
  if (seen.has(name)) return;
  seen.add(name);
  const def = remoteTypes.get(name);
  if (def === undefined) throw mismatch(`Unable to find the type ${name} on the remote schema`);
  for (const f of [...(def.fields ?? []), ...(def.inputFields ?? [])]) {
    if (!specScalars.has(f.type.name ?? '')) expand(namedType(f.type), remoteTypes, seen);
  }
}

function matchArgs(
  given: readonly (readonly [string, ValueNode])[],
  varTypes: ReadonlyMap<string, TypeRef>,
  remoteArgs: readonly RemoteField[],
  remoteTypes: ReadonlyMap<string, RemoteTypeDef>,
  defs: readonly Definition[],
  operation: string,
  name: string,
): void {
  const byName = new Map(remoteArgs.map((a) => [a.name, a.type]));
  for (const [argName, value] of given) {
    const remote = byName.get(argName);
    if (remote === undefined) throw mismatch(`argument \`${argName}\` is not present in remote ${operation} \`${name}\`.`);
    switch (value.kind) {
      case Kind.VARIABLE: {
        const local = varTypes.get(value.name.value);
        if (local === undefined) throw mismatch(`variable $${value.name.value} is missing in given context.`);
        const expected = typeString(local);
        const got = remoteTypeString(remote);
        if (expected !== got) throw mismatch(`found type mismatch for variable \`$${value.name.value}\` in ${operation} \`${name}\`, expected \`${expected}\`, got \`${got}\`.`);
        matchDeepTypes(remote, remoteTypes, defs);
        break;
      }
      case Kind.OBJECT: {
        const inner = remote.kind === 'NON_NULL' ? remote.ofType : remote;
        if (inner?.kind !== 'INPUT_OBJECT') {
          throw mismatch(`object value supplied for argument \`${argName}\` in ${operation} \`${name}\`, but remote argument doesn't accept INPUT_OBJECT.`);
        }
        const def = remoteTypes.get(namedType(remote));
        if (def === undefined) throw missingType(namedType(remote));
        matchArgs(value.fields.map((f) => [f.name.value, f.value] as const), varTypes, [...(def.fields ?? []), ...(def.inputFields ?? [])], remoteTypes, defs, operation, name);
        break;
      }
      case Kind.LIST: {
        const inner = remote.kind === 'NON_NULL' ? remote.ofType : remote;
        if (inner?.kind !== 'LIST' || !inner.ofType) {
          throw mismatch(`LIST value supplied for argument \`${argName}\` in ${operation} \`${name}\`, but remote argument doesn't accept LIST.`);
        }
        const def = remoteTypes.get(namedType(remote));
        if (def === undefined) throw missingType(namedType(remote));
        if (def.kind !== 'INPUT_OBJECT') {
          throw mismatch(
            `argument \`${argName}\` in ${operation} \`${name}\` of List kind has non-object elements in remote ${operation}, Lists can have only INPUT_OBJECT as element.`,
          );
        }
        for (const item of value.values) {
          if (item.kind !== Kind.OBJECT) {
            throw mismatch(`argument \`${argName}\` in ${operation} \`${name}\` of List kind has non-object elements, Lists can have only objects as element.`);
          }
          matchArgs(item.fields.map((f) => [f.name.value, f.value] as const), varTypes, [...(def.fields ?? []), ...(def.inputFields ?? [])], remoteTypes, defs, operation, name);
        }
        break;
      }
      default:
        throw mismatch(`scalar value supplied for argument \`${argName}\` in ${operation} \`${name}\`, only Variable, Object, or List values are allowed.`);
    }
  }
  for (const arg of remoteArgs) {
    if (arg.type.kind === 'NON_NULL' && !given.some(([n]) => n === arg.name)) {
      throw mismatch(`argument \`${arg.name}\` in ${operation} \`${name}\` is missing, it is required by remote ${operation}.`);
    }
  }
}
