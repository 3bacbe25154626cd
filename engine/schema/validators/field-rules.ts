// Per-field rules (Dgraph's fieldValidations, REFERENCE §9.2).
import type { SchemaError } from '../../api.js';
import type { Definition, FieldDef } from '../sdl-ast.js';
import { findArg, findDirective, typeName } from '../sdl-ast.js';
import { isQueryOrMutation, isRemote } from '../helpers.js';
import { errorAt } from './errors.js';
import { isReservedArgument, isReservedKeyWord } from './reserved.js';

type FieldRule = (d: Definition, f: FieldDef) => SchemaError[];

const isRootType = (d: Definition): boolean => d.kind === 'OBJECT' && isQueryOrMutation(d.name);

const listValidityCheck: FieldRule = (d, f) =>
  f.type.elem?.elem !== undefined ? [errorAt(f.pos, `Type ${d.name}; Field ${f.name}: Nested lists are invalid.`)] : [];

const fieldArgumentCheck: FieldRule = (d, f) => {
  if (isRootType(d) || isRemote(d)) return [];
  const bad = f.args.find((a) => isReservedArgument(a.name));
  return bad ? [errorAt(f.pos, `Type ${d.name}; Field ${f.name}: can't have ${bad.name} as an argument because it is a reserved argument.`)] : [];
};

const fieldNameCheck: FieldRule = (d, f) => {
  if (isReservedKeyWord(f.name)) {
    return [errorAt(f.pos, `Type ${d.name}; Field ${f.name}: ${f.name} is a reserved keyword and you cannot declare a field with this name.`)];
  }
  if (f.name.endsWith('Aggregate')) {
    return [errorAt(f.pos, `Type ${d.name}; Field ${f.name}: Aggregate is a reserved keyword and you cannot declare a field with Aggregate as suffix.`)];
  }
  return [];
};

const isValidFieldForList: FieldRule = (d, f) => {
  if (f.type.elem === undefined) return [];
  const n = typeName(f.type.elem);
  return n === 'ID' || n === 'Boolean' ? [errorAt(f.pos, `Type ${d.name}; Field ${f.name}: ${n} lists are invalid.`)] : [];
};

const hasAuthDirective: FieldRule = (d, f) =>
  findDirective(f.directives, 'auth') ? [errorAt(f.pos, `Type ${d.name}; Field ${f.name}: @auth directive is not allowed on fields`)] : [];

const fieldDirectiveCheck: FieldRule = (d, f) => {
  const subs = findDirective(f.directives, 'withSubscription');
  const custom = findDirective(f.directives, 'custom');
  if (subs && d.name !== 'Query') {
    return [errorAt(f.pos, `Type ${d.name}; Field ${f.name}: @withSubscription directive is applicable only on types and custom dql queries`)];
  }
  if (subs && custom && !findArg(custom, 'dql')) {
    return [errorAt(f.pos, `Type ${d.name}; Field ${f.name}: custom query should have dql argument if @withSubscription directive is set`)];
  }
  return [];
};

export const FIELD_RULES: readonly FieldRule[] = [
  listValidityCheck,
  fieldArgumentCheck,
  fieldNameCheck,
  isValidFieldForList,
  hasAuthDirective,
  fieldDirectiveCheck,
];
