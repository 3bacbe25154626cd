// A small mutable SDL tree, shaped like gqlparser's ast: Dgraph's generation rules are written
// against that shape (definitions appended to, fields copied and re-typed), so we mirror it.

export interface Pos {
  readonly line: number;
  readonly column: number;
}

export type ValueKind =
  | 'Variable'
  | 'Int'
  | 'Float'
  | 'String'
  | 'Block'
  | 'Boolean'
  | 'Null'
  | 'Enum'
  | 'List'
  | 'Object';

export interface ValueChild {
  /** Object field name; empty for list items. */
  readonly name: string;
  readonly value: Value;
  readonly pos?: Pos | undefined;
}

export interface Value {
  readonly kind: ValueKind;
  /** Scalar text (string contents unescaped, block strings dedented); empty for lists/objects. */
  readonly raw: string;
  readonly children: readonly ValueChild[];
  readonly pos?: Pos | undefined;
}

export interface Argument {
  readonly name: string;
  readonly value: Value;
  readonly pos?: Pos | undefined;
}

export interface Directive {
  readonly name: string;
  readonly args: Argument[];
  readonly pos?: Pos | undefined;
}

/** `name` set: a named type; otherwise a list of `elem`. */
export interface TypeRef {
  name?: string;
  elem?: TypeRef;
  nonNull: boolean;
  pos?: Pos | undefined;
}

export interface ArgDef {
  name: string;
  description?: string | undefined;
  type: TypeRef;
  defaultValue?: Value | undefined;
  directives: Directive[];
  pos?: Pos | undefined;
}

export interface FieldDef {
  name: string;
  description?: string | undefined;
  args: ArgDef[];
  type: TypeRef;
  directives: Directive[];
  pos?: Pos | undefined;
  defaultValue?: Value | undefined;
  /** Copied from an interface into an implementing type. */
  inherited?: boolean | undefined;
}

export interface EnumValueDef {
  name: string;
  description?: string | undefined;
  directives: Directive[];
  pos?: Pos | undefined;
}

export type DefKind = 'SCALAR' | 'OBJECT' | 'INTERFACE' | 'UNION' | 'ENUM' | 'INPUT_OBJECT';

export interface Definition {
  kind: DefKind;
  name: string;
  description?: string | undefined;
  fields: FieldDef[];
  interfaces: string[];
  /** Union members. */
  types: string[];
  enumValues: EnumValueDef[];
  directives: Directive[];
  pos?: Pos | undefined;
  /** From the built-in extras, not the user's input. */
  builtIn: boolean;
  /** Written as `extend type X`. */
  extension: boolean;
}

export function newDefinition(kind: DefKind, name: string): Definition {
  return { kind, name, fields: [], interfaces: [], types: [], enumValues: [], directives: [], builtIn: false, extension: false };
}

export function namedType(name: string, nonNull = false): TypeRef {
  return { name, nonNull };
}

export function listType(elem: TypeRef, nonNull = false): TypeRef {
  return { elem, nonNull };
}

/** Innermost named type. */
export function typeName(t: TypeRef): string {
  return t.name ?? (t.elem ? typeName(t.elem) : '');
}

export function isList(t: TypeRef): boolean {
  return t.name === undefined;
}

export function typeString(t: TypeRef): string {
  const inner = t.name ?? `[${t.elem ? typeString(t.elem) : ''}]`;
  return t.nonNull ? `${inner}!` : inner;
}

export function copyType(t: TypeRef): TypeRef {
  const c: TypeRef = { nonNull: t.nonNull };
  if (t.name !== undefined) c.name = t.name;
  if (t.elem) c.elem = copyType(t.elem);
  if (t.pos) c.pos = t.pos;
  return c;
}

export function findDirective(list: readonly Directive[], name: string): Directive | undefined {
  return list.find((d) => d.name === name);
}

export function findArg(d: Directive | undefined, name: string): Argument | undefined {
  return d?.args.find((a) => a.name === name);
}

export function findChild(v: Value | undefined, name: string): ValueChild | undefined {
  return v?.children.find((c) => c.name === name);
}

export function stringValue(raw: string, kind: ValueKind = 'String'): Value {
  return { kind, raw, children: [] };
}
