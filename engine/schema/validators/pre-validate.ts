// Step 5: checks on the raw document, before interface fields are inherited and extras added
// (REFERENCE §9.1). All errors are collected.
import type { SchemaError } from '../../api.js';
import type { Definition } from '../sdl-ast.js';
import { isCustomOrLambda, isRemote } from '../helpers.js';
import { errorAt } from './errors.js';
import { FORBIDDEN_TYPE_NAMES, isReservedKeyWord } from './reserved.js';

type Kinds = ReadonlySet<Definition['kind']> | null;
const OBJ_INTF: Kinds = new Set(['OBJECT', 'INTERFACE']);

/** Type-level placement of known directives: null = field-only directive. */
const DIRECTIVE_LOCATIONS: Readonly<Record<string, Kinds>> = {
  hasInverse: null,
  search: null,
  embedding: null,
  dgraph: OBJ_INTF,
  id: null,
  withSubscription: OBJ_INTF,
  secret: OBJ_INTF,
  auth: OBJ_INTF,
  custom: null,
  remote: new Set(['OBJECT', 'INTERFACE', 'UNION', 'INPUT_OBJECT', 'ENUM']),
  lambda: null,
  lambdaOnMutate: OBJ_INTF,
  generate: OBJ_INTF,
  default: null,
  key: OBJ_INTF,
  extends: OBJ_INTF,
};

function dataTypeCheck(d: Definition): SchemaError[] {
  return d.kind === 'SCALAR'
    ? [errorAt(d.pos, "You can't add scalar definitions. Only type, interface, union, input and enums are allowed in initial schema.")]
    : [];
}

function nameCheck(d: Definition): SchemaError[] {
  if (d.kind === 'SCALAR' || !isReservedKeyWord(d.name)) return [];
  if (d.kind === 'OBJECT' && (d.name === 'Query' || d.name === 'Mutation')) {
    const bad = d.fields.find((f) => !isCustomOrLambda(f));
    if (!bad) return [];
    return [
      errorAt(
        d.pos,
        `GraphQL Query and Mutation types are only allowed to have fields with @custom/@lambda directive. Other fields are built automatically for you. Found ${d.name} ${bad.name} without @custom/@lambda.`,
      ),
    ];
  }
  return [errorAt(d.pos, `${d.name} is a reserved word, so you can't declare a type with this name. Pick a different name for the type.`)];
}

function directiveLocationCheck(d: Definition): SchemaError[] {
  const errs: SchemaError[] = [];
  for (const dir of d.directives) {
    if (!(dir.name in DIRECTIVE_LOCATIONS)) continue;
    const kinds = DIRECTIVE_LOCATIONS[dir.name];
    if (kinds === null || kinds === undefined) {
      errs.push(errorAt(dir.pos, `Type ${d.name}; has the @${dir.name} directive, but it is not applicable at type level.`));
    } else if (!kinds.has(d.kind)) {
      errs.push(errorAt(dir.pos, `Type ${d.name}; has the @${dir.name} directive, but it is not applicable on types of ${d.kind} kind.`));
    }
  }
  return errs;
}

function typeNameValidation(defs: readonly Definition[]): SchemaError[] {
  const forbidden = new Set(FORBIDDEN_TYPE_NAMES);
  for (const d of defs) {
    if (d.name === 'Query' || d.name === 'Mutation' || isRemote(d)) continue;
    const n = d.name;
    if (d.kind === 'UNION') {
      for (const s of [`${n}Ref`, `${n}Filter`, `${n}Type`]) forbidden.add(s);
    } else if (d.kind === 'OBJECT' || d.kind === 'INTERFACE') {
      for (const s of [`${n}Ref`, `${n}Patch`, `Update${n}Input`, `Update${n}Payload`, `Delete${n}Input`, `${n}AggregateResult`]) forbidden.add(s);
      if (d.kind === 'OBJECT') forbidden.add(`Add${n}Input`).add(`Add${n}Payload`);
      for (const s of [`${n}Filter`, `${n}Order`, `${n}Orderable`]) forbidden.add(s);
    }
  }
  return defs
    .filter((d) => forbidden.has(d.name))
    .map((d) =>
      errorAt(d.pos, `${d.name} is a reserved word, so you can't declare a ${d.kind} with this name. Pick a different name for the ${d.kind}.`),
    );
}

function customRootNameValidation(defs: readonly Definition[], root: 'Query' | 'Mutation'): SchemaError[] {
  const forbidden = new Set<string>();
  const defined = defs.filter((d) => d.name === root).flatMap((d) => d.fields);
  for (const d of defs) {
    if ((d.kind !== 'OBJECT' && d.kind !== 'INTERFACE') || d.name === root || isRemote(d)) continue;
    if (root === 'Query') {
      forbidden.add(`get${d.name}`).add(`check${d.name}Password`).add(`query${d.name}`);
    } else {
      if (d.kind === 'OBJECT') forbidden.add(`add${d.name}`);
      forbidden.add(`update${d.name}`).add(`delete${d.name}`);
    }
  }
  const what = root === 'Query' ? 'query' : 'mutation';
  return defined
    .filter((f) => forbidden.has(f.name))
    .map((f) => errorAt(f.pos, `${f.name} is a reserved word, so you can't declare a ${what} with this name. Pick a different name for the ${what}.`));
}

export function preValidate(defs: readonly Definition[]): SchemaError[] {
  const errs: SchemaError[] = [];
  for (const d of defs) errs.push(...dataTypeCheck(d), ...nameCheck(d), ...directiveLocationCheck(d));
  errs.push(...typeNameValidation(defs), ...customRootNameValidation(defs, 'Query'), ...customRootNameValidation(defs, 'Mutation'));
  return errs;
}
