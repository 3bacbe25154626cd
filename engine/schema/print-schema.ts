// Prints the completed schema in Dgraph's generated-schema layout (REFERENCE §4.8), byte for byte:
// the user's definitions in input order, the fixed extras, then generated definitions alphabetically.
import { goQuote } from './go-quote.js';
import { APOLLO_EXTRAS, EXTENDED_DEFINITIONS } from './extended-definitions.js';
import type { ArgDef, Argument, Definition, Directive, FieldDef, Value } from './sdl-ast.js';
import { typeString } from './sdl-ast.js';
import type { CompletedSchema } from './generate-api.js';

/** Directives Dgraph knows (has a validator for); any other directive is dropped from the output. */
const PRINTED_DIRECTIVES: ReadonlySet<string> = new Set([
  'hasInverse',
  'search',
  'embedding',
  'dgraph',
  'id',
  'withSubscription',
  'secret',
  'auth',
  'custom',
  'remote',
  'deprecated',
  'lambda',
  'default',
  'lambdaOnMutate',
  'generate',
  'key',
  'extends',
  'external',
  'requires',
  'provides',
  'remoteResponse',
]);

export function printValue(v: Value): string {
  switch (v.kind) {
    case 'Variable':
      return `$${v.raw}`;
    case 'String':
    case 'Block':
      return goQuote(v.raw);
    case 'List':
      return `[${v.children.map((c) => printValue(c.value)).join(',')}]`;
    case 'Object':
      return `{${v.children.map((c) => `${c.name}:${printValue(c.value)}`).join(',')}}`;
    default:
      return v.raw;
  }
}

function printArgs(args: readonly Argument[]): string {
  return args.length === 0 ? '' : `(${args.map((a) => `${a.name}: ${printValue(a.value)}`).join(', ')})`;
}

function printDirectives(dirs: readonly Directive[]): string {
  const shown = dirs.filter((d) => PRINTED_DIRECTIVES.has(d.name));
  return shown.length === 0 ? '' : ' ' + shown.map((d) => `@${d.name}${printArgs(d.args)}`).join(' ');
}

function printArgDefs(args: readonly ArgDef[]): string {
  return args.length === 0 ? '' : `(${args.map((a) => `${a.name}: ${typeString(a.type)}`).join(', ')})`;
}

function description(d: string | undefined): string {
  return d ? `"""${d}"""\n` : '';
}

function printFields(fields: readonly FieldDef[]): string {
  let out = '';
  for (const f of fields) {
    if (f.name.startsWith('__')) continue;
    if (f.description) out += `\t${description(f.description)}`;
    out += `\t${f.name}${printArgDefs(f.args)}: ${typeString(f.type)}${printDirectives(f.directives)}\n`;
  }
  return out;
}

function printDefinition(def: Definition): string {
  const desc = description(def.description);
  const dirs = printDirectives(def.directives);
  switch (def.kind) {
    case 'OBJECT': {
      const impl = def.interfaces.length > 0 ? ` implements ${def.interfaces.join(' & ')}` : '';
      return `${desc}type ${def.name}${impl}${dirs} {\n${printFields(def.fields)}}\n`;
    }
    case 'INTERFACE':
      return `${desc}interface ${def.name}${dirs} {\n${printFields(def.fields)}}\n`;
    case 'INPUT_OBJECT':
      return `${desc}input ${def.name}${dirs} {\n${printFields(def.fields)}}\n`;
    case 'UNION':
      return `${desc}union ${def.name}${dirs} = ${def.types.join(' | ')}\n`;
    case 'ENUM': {
      let out = `${desc}enum ${def.name}${dirs} {\n`;
      for (const v of def.enumValues) {
        if (v.description) out += `\t${description(v.description)}`;
        out += `\t${v.name}${printDirectives(v.directives)}\n`;
      }
      return `${out}}\n`;
    }
    case 'SCALAR':
      return `${desc}scalar ${def.name}\n`;
  }
}

const header = (title: string): string => `#######################\n# ${title}\n#######################\n`;

export function printSchema(s: CompletedSchema): string {
  let original = '';
  for (const name of s.originalDefs) {
    if (name === 'Query' || name === 'Mutation') continue;
    const def = s.types.get(name);
    if (def) original += printDefinition(def) + '\n';
  }
  let objects = '';
  let enums = '';
  let inputs = '';
  const generated = [...s.types.keys()].filter((n) => !s.printedElsewhere.has(n)).sort();
  for (const name of generated) {
    const def = s.types.get(name);
    if (!def) continue;
    if (def.kind === 'OBJECT') objects += printDefinition(def) + '\n';
    else if (def.kind === 'INPUT_OBJECT') inputs += printDefinition(def) + '\n';
    else if (def.kind === 'ENUM') enums += printDefinition(def) + '\n';
  }
  let out = header('Input Schema') + '\n' + original;
  out += header('Extended Definitions') + EXTENDED_DEFINITIONS + '\n';
  if (s.apollo) out += header('Extended Apollo Definitions') + APOLLO_EXTRAS(s.apolloEntities) + '\n';
  if (objects) out += header('Generated Types') + '\n' + objects;
  if (enums) out += header('Generated Enums') + '\n' + enums;
  if (inputs) out += header('Generated Inputs') + '\n' + inputs;
  if (s.query.fields.length > 0) out += header('Generated Query') + '\n' + printDefinition(s.query) + '\n';
  if (s.mutation.fields.length > 0) out += header('Generated Mutations') + '\n' + printDefinition(s.mutation) + '\n';
  if (s.subscription.fields.length > 0) out += header('Generated Subscriptions') + '\n' + printDefinition(s.subscription);
  return out;
}
