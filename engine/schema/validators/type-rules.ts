// Per-definition rules run after spec validation (Dgraph's typeValidations, REFERENCE §9.2).
import type { SchemaError } from '../../api.js';
import type { Definition, Value } from '../sdl-ast.js';
import { findArg, findChild, findDirective } from '../sdl-ast.js';
import { isCustomOrLambda, isIDField, isQueryOrMutation, isRemote } from '../helpers.js';
import { printValue } from '../print-schema.js';
import { errorAt } from './errors.js';
import { isReservedKeyWord } from './reserved.js';

export interface TypeRuleContext {
  readonly types: ReadonlyMap<string, Definition>;
  readonly lambdaUrl?: string | undefined;
}

type TypeRule = (d: Definition, ctx: TypeRuleContext) => SchemaError[];

const isRootType = (d: Definition): boolean => d.kind === 'OBJECT' && isQueryOrMutation(d.name);

const idCountCheck: TypeRule = (d) => {
  const ids = d.fields.filter(isIDField);
  if (ids.length <= 1) return [];
  const names = ids.map((f) => f.name);
  const list = `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
  return [
    {
      message: `Fields ${list} are listed as IDs for type ${d.name}, but a type can have only one ID field. Pick a single field as the ID for type ${d.name}.`,
      locations: ids.flatMap((f) => (f.pos ? [{ line: f.pos.line, column: f.pos.column }] : [])),
    },
  ];
};

const dgraphDirectiveTypeValidation: TypeRule = (d) => {
  const dir = findDirective(d.directives, 'dgraph');
  if (!dir) return [];
  const arg = findArg(dir, 'type');
  if (!arg || arg.value.raw === '') return [errorAt(dir.pos, `Type ${d.name}; type argument for @dgraph directive should not be empty.`)];
  if (arg.value.kind !== 'String') return [errorAt(dir.pos, `Type ${d.name}; type argument for @dgraph directive should of type String.`)];
  if (isReservedKeyWord(arg.value.raw)) {
    return [errorAt(dir.pos, `Type ${d.name}; type argument '${arg.value.raw}' for @dgraph directive is a reserved keyword.`)];
  }
  return [];
};

const passwordDirectiveValidation: TypeRule = (d) => {
  const names: string[] = [];
  for (const dir of d.directives) {
    if (dir.name !== 'secret') continue;
    const v = findArg(dir, 'field')?.value.raw ?? '';
    if (v === '') return [errorAt(d.pos, `Type ${d.name}; Argument "field" of secret directive is empty`)];
    names.push(v);
  }
  if (names.length > 1) return [errorAt(d.pos, `Type ${d.name}; has more than one secret fields ${names.join(',')}`)];
  const only = names[0];
  if (only !== undefined && d.fields.some((f) => f.name === only)) {
    return [errorAt(d.pos, `Type ${d.name}; has a secret directive and field of the same name ${only}`)];
  }
  return [];
};

const conflictingDirectiveValidation: TypeRule = (d) => {
  const has = (n: string): boolean => d.directives.some((x) => x.name === n);
  if (has('auth') && has('remote')) return [errorAt(d.pos, `Type ${d.name}; cannot have both @auth and @remote directive`)];
  if (has('withSubscription') && has('remote')) return [errorAt(d.pos, `Type ${d.name}; cannot have both @withSubscription and @remote directive`)];
  return [];
};

const nonIdFieldsCheck: TypeRule = (d) => {
  if (d.kind !== 'OBJECT' || isRootType(d) || isRemote(d)) return [];
  if (d.fields.some((f) => !isIDField(f) && !isCustomOrLambda(f))) return [];
  return [
    errorAt(d.pos, `Type ${d.name}; is invalid, a type must have atleast one field that is not of ID! type and doesn't have @custom/@lambda directive.`),
  ];
};

const remoteTypeValidation: TypeRule = (d, ctx) => {
  if (isRootType(d)) return [];
  if (!isRemote(d)) {
    for (const f of d.fields) {
      if (isCustomOrLambda(f)) continue;
      if (isRemote(ctx.types.get(typeNameOf(f.type)))) {
        return [
          errorAt(f.pos, `Type ${d.name}; field ${f.name}; is of a type that has @remote directive. Those would need to be resolved by a @custom/@lambda directive.`),
        ];
      }
    }
    for (const i of d.interfaces) {
      if (isRemote(ctx.types.get(i))) {
        return [errorAt(d.pos, `Type ${d.name}; without @remote directive can't implement an interface ${i}; with have @remote directive.`)];
      }
    }
    return [];
  }
  for (const f of d.fields) {
    if (isCustomOrLambda(f)) {
      return [
        errorAt(f.pos, `Type ${d.name}; field ${f.name}; can't have @custom/@lambda directive as a @remote type can't have fields with @custom/@lambda directive.`),
      ];
    }
  }
  for (const i of d.interfaces) {
    if (!isRemote(ctx.types.get(i))) {
      return [errorAt(d.pos, `Type ${d.name}; with @remote directive implements interface ${i}; which doesn't have @remote directive.`)];
    }
  }
  return [];
};

function typeNameOf(t: Definition['fields'][number]['type']): string {
  return t.name ?? (t.elem ? typeNameOf(t.elem) : '');
}

const boolOnly = (v: Value | undefined): boolean => v === undefined || v.kind === 'Boolean';

const generateDirectiveValidation: TypeRule = (d) => {
  const dir = findDirective(d.directives, 'generate');
  if (!dir) return [];
  const errs: SchemaError[] = [];
  const group = (argName: 'query' | 'mutation', keys: readonly string[]): void => {
    const arg = findArg(dir, argName);
    if (!arg) return;
    if (arg.value.kind !== 'Object') errs.push(errorAt(arg.pos, `Type ${d.name}; ${argName} argument for @generate directive should be of type Object.`));
    for (const k of keys) {
      const v = findChild(arg.value, k)?.value;
      if (!boolOnly(v)) {
        errs.push(errorAt(v?.pos, `Type ${d.name}; ${k} field inside ${argName} argument of @generate directive can only be true/false, found: \`${v?.raw ?? ''}`));
      }
    }
  };
  group('query', ['get', 'query', 'password', 'aggregate']);
  group('mutation', ['add', 'update', 'delete']);
  const sub = findArg(dir, 'subscription');
  if (sub && sub.value.kind !== 'Boolean') {
    errs.push(errorAt(dir.pos, `Type ${d.name}; subscription argument in @generate directive can only be true/false, found: \`${sub.value.raw}\`.`));
  }
  return errs;
};

const apolloKeyValidation: TypeRule = (d) => {
  const keys = d.directives.filter((x) => x.name === 'key');
  if (keys.length === 0) return [];
  if (keys.length > 1) return [errorAt(keys[1]!.pos, `Type ${d.name}; @key directive should not be defined more than once.`)];
  const dir = keys[0]!;
  const arg = findArg(dir, 'fields');
  if (!arg || arg.value.raw === '') return [errorAt(dir.pos, `Type ${d.name}; Argument fields inside @key directive must be defined.`)];
  const fld = d.fields.find((f) => f.name === arg.value.raw);
  if (!fld) return [errorAt(arg.pos, `Type ${d.name}; @key directive uses a field ${arg.value.raw} which is not defined inside the type.`)];
  if (!(isIDField(fld) || findDirective(fld.directives, 'id'))) {
    return [errorAt(arg.pos, `Type ${d.name}: Field ${fld.name}: used inside @key directive should be of type ID or have @id directive.`)];
  }
  if (findDirective(d.directives, 'remote')) return [errorAt(REMOTE_DEFINITION_POS, `Type ${d.name}; @remote directive cannot be defined with @key directive`)];
  return [];
};

/**
 * Dgraph reports these two at the position of the directive's *definition* in its built-in
 * extras (line 13 of the Apollo extras, line 181 of the main extras), and its tests assert that.
 */
const EXTENDS_DEFINITION_POS = { line: 13, column: 12 };
const REMOTE_DEFINITION_POS = { line: 181, column: 12 };

const apolloExtendsValidation: TypeRule = (d) => {
  const ext = findDirective(d.directives, 'extends');
  if (!ext) return [];
  if (!findDirective(d.directives, 'key')) return [errorAt(EXTENDS_DEFINITION_POS, `Type ${d.name}; Type Extension cannot be defined without @key directive`)];
  if (findDirective(d.directives, 'remote')) return [errorAt(REMOTE_DEFINITION_POS, `Type ${d.name}; @remote directive cannot be defined with @extends directive`)];
  return [];
};

const lambdaOnMutateValidation: TypeRule = (d, ctx) => {
  const dir = findDirective(d.directives, 'lambdaOnMutate');
  if (!dir) return [];
  const errs: SchemaError[] = [];
  if (!ctx.lambdaUrl) {
    errs.push(errorAt(dir.pos, `Type ${d.name}: has the @lambdaOnMutate directive, but the \`--lambda-url\` flag wasn't specified during startup.`));
  }
  if (isRemote(d)) errs.push(errorAt(dir.pos, `Type ${d.name}; @lambdaOnMutate directive not allowed along with @remote directive.`));
  for (const a of dir.args) {
    if (a.value.kind !== 'Boolean') {
      errs.push(errorAt(a.pos, `Type ${d.name}; ${a.name} argument in @lambdaOnMutate directive can only be true/false, found: \`${printValue(a.value)}\`.`));
    }
  }
  return errs;
};

/** In Dgraph's order. */
export const TYPE_RULES: readonly TypeRule[] = [
  idCountCheck,
  dgraphDirectiveTypeValidation,
  passwordDirectiveValidation,
  conflictingDirectiveValidation,
  nonIdFieldsCheck,
  remoteTypeValidation,
  generateDirectiveValidation,
  apolloKeyValidation,
  apolloExtendsValidation,
  lambdaOnMutateValidation,
];
