// Turns graphql-js's parse tree of the uploaded SDL into our mutable sdl-ast tree, with the
// line/column positions gqlparser would report (names for definitions, fields, directives).
import type {
  ArgumentNode,
  ConstDirectiveNode,
  DefinitionNode,
  DocumentNode,
  EnumValueDefinitionNode,
  FieldDefinitionNode,
  InputValueDefinitionNode,
  Location,
  TypeNode,
  ValueNode,
} from 'graphql';
import { Kind } from 'graphql';
import type { ArgDef, Argument, Definition, Directive, EnumValueDef, FieldDef, Pos, TypeRef, Value } from './sdl-ast.js';
import { newDefinition } from './sdl-ast.js';

export interface ConvertedDocument {
  readonly definitions: Definition[];
  /** `directive @x ...` declared by the user: accepted and otherwise ignored. */
  readonly directiveNames: string[];
}

export function convertDocument(doc: DocumentNode): ConvertedDocument {
  const definitions: Definition[] = [];
  const directiveNames: string[] = [];
  for (const node of doc.definitions) {
    if (node.kind === Kind.DIRECTIVE_DEFINITION) {
      directiveNames.push(node.name.value);
      continue;
    }
    const def = convertDefinition(node);
    if (def) definitions.push(def);
  }
  return { definitions, directiveNames };
}

function posOf(loc: Location | undefined): Pos | undefined {
  if (!loc) return undefined;
  // The parser already knows the token's line and column; getLocation would rescan the source.
  const { line, column } = loc.startToken;
  return { line, column };
}

function convertDefinition(node: DefinitionNode): Definition | undefined {
  switch (node.kind) {
    case Kind.OBJECT_TYPE_DEFINITION:
    case Kind.OBJECT_TYPE_EXTENSION:
    case Kind.INTERFACE_TYPE_DEFINITION:
    case Kind.INTERFACE_TYPE_EXTENSION: {
      const isObject = node.kind === Kind.OBJECT_TYPE_DEFINITION || node.kind === Kind.OBJECT_TYPE_EXTENSION;
      const def = base(isObject ? 'OBJECT' : 'INTERFACE', node);
      def.interfaces = (node.interfaces ?? []).map((i) => i.name.value);
      def.fields = (node.fields ?? []).map(convertField);
      def.extension = node.kind === Kind.OBJECT_TYPE_EXTENSION || node.kind === Kind.INTERFACE_TYPE_EXTENSION;
      return def;
    }
    case Kind.INPUT_OBJECT_TYPE_DEFINITION:
    case Kind.INPUT_OBJECT_TYPE_EXTENSION: {
      const def = base('INPUT_OBJECT', node);
      def.fields = (node.fields ?? []).map(convertInputField);
      def.extension = node.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION;
      return def;
    }
    case Kind.UNION_TYPE_DEFINITION:
    case Kind.UNION_TYPE_EXTENSION: {
      const def = base('UNION', node);
      def.types = (node.types ?? []).map((t) => t.name.value);
      def.extension = node.kind === Kind.UNION_TYPE_EXTENSION;
      return def;
    }
    case Kind.ENUM_TYPE_DEFINITION:
    case Kind.ENUM_TYPE_EXTENSION: {
      const def = base('ENUM', node);
      def.enumValues = (node.values ?? []).map(convertEnumValue);
      def.extension = node.kind === Kind.ENUM_TYPE_EXTENSION;
      return def;
    }
    case Kind.SCALAR_TYPE_DEFINITION:
    case Kind.SCALAR_TYPE_EXTENSION:
      return base('SCALAR', node);
    default:
      return undefined;
  }
}

interface NamedNode {
  readonly name: { readonly value: string; readonly loc?: Location | undefined };
  readonly description?: { readonly value: string } | undefined;
  readonly directives?: readonly ConstDirectiveNode[] | undefined;
}

function base(kind: Definition['kind'], node: NamedNode): Definition {
  const def = newDefinition(kind, node.name.value);
  def.description = node.description?.value;
  def.directives = (node.directives ?? []).map(convertDirective);
  def.pos = posOf(node.name.loc);
  return def;
}

function convertField(node: FieldDefinitionNode): FieldDef {
  return {
    name: node.name.value,
    description: node.description?.value,
    args: (node.arguments ?? []).map(convertArgDef),
    type: convertType(node.type),
    directives: (node.directives ?? []).map(convertDirective),
    pos: posOf(node.name.loc),
  };
}

function convertInputField(node: InputValueDefinitionNode): FieldDef {
  return {
    name: node.name.value,
    description: node.description?.value,
    args: [],
    type: convertType(node.type),
    directives: (node.directives ?? []).map(convertDirective),
    pos: posOf(node.name.loc),
    defaultValue: node.defaultValue ? convertValue(node.defaultValue) : undefined,
  };
}

function convertArgDef(node: InputValueDefinitionNode): ArgDef {
  return {
    name: node.name.value,
    description: node.description?.value,
    type: convertType(node.type),
    defaultValue: node.defaultValue ? convertValue(node.defaultValue) : undefined,
    directives: (node.directives ?? []).map(convertDirective),
    pos: posOf(node.name.loc),
  };
}

function convertEnumValue(node: EnumValueDefinitionNode): EnumValueDef {
  return {
    name: node.name.value,
    description: node.description?.value,
    directives: (node.directives ?? []).map(convertDirective),
    pos: posOf(node.name.loc),
  };
}

function convertType(node: TypeNode): TypeRef {
  switch (node.kind) {
    case Kind.NON_NULL_TYPE:
      return { ...convertType(node.type), nonNull: true, pos: posOf(node.loc) };
    case Kind.LIST_TYPE:
      return { elem: convertType(node.type), nonNull: false, pos: posOf(node.loc) };
    case Kind.NAMED_TYPE:
      return { name: node.name.value, nonNull: false, pos: posOf(node.loc) };
  }
}

function convertDirective(node: ConstDirectiveNode): Directive {
  return { name: node.name.value, args: (node.arguments ?? []).map(convertArgument), pos: posOf(node.name.loc) };
}

function convertArgument(node: ArgumentNode): Argument {
  return { name: node.name.value, value: convertValue(node.value), pos: posOf(node.name.loc) };
}

function convertValue(node: ValueNode): Value {
  const pos = posOf(node.loc);
  switch (node.kind) {
    case Kind.VARIABLE:
      return { kind: 'Variable', raw: node.name.value, children: [], pos };
    case Kind.INT:
      return { kind: 'Int', raw: node.value, children: [], pos };
    case Kind.FLOAT:
      return { kind: 'Float', raw: node.value, children: [], pos };
    case Kind.STRING: {
      // gqlparser positions a string value after its opening quote(s).
      const shift = node.block === true ? 3 : 1;
      const spos = pos ? { line: pos.line, column: pos.column + shift } : pos;
      return { kind: node.block === true ? 'Block' : 'String', raw: node.value, children: [], pos: spos };
    }
    case Kind.BOOLEAN:
      return { kind: 'Boolean', raw: String(node.value), children: [], pos };
    case Kind.NULL:
      return { kind: 'Null', raw: 'null', children: [], pos };
    case Kind.ENUM:
      return { kind: 'Enum', raw: node.value, children: [], pos };
    case Kind.LIST:
      return { kind: 'List', raw: '', children: node.values.map((v) => ({ name: '', value: convertValue(v), pos: posOf(v.loc) })), pos };
    case Kind.OBJECT:
      return {
        kind: 'Object',
        raw: '',
        children: node.fields.map((f) => ({ name: f.name.value, value: convertValue(f.value), pos: posOf(f.name.loc) })),
        pos,
      };
  }
}
