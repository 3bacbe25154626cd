// The literal rules without a validation visit, for the simplest known shapes: in a document with no
// variables, fragments, literals in directives or repeated response names, only ValuesOfCorrectType
// reads literal values, and for a string or number literal it asks the scalar at that place to parse
// it. The scalar at each literal is taken once from a valid document of the shape (TypeInfo), then
// each literal of a new document with that shape is parsed by it, as graphql-js's rule does.

import { getNamedType, isLeafType, Kind, TypeInfo, visit, visitWithTypeInfo, type ASTNode, type DocumentNode, type GraphQLLeafType, type GraphQLSchema, type SelectionNode } from 'graphql';

type Literal = ASTNode & { readonly kind: Kind.STRING | Kind.INT | Kind.FLOAT };

/** The leaf type at each literal of a valid document, in `literalsOf` order, or undefined when the shape needs the rules. */
export function literalTypesOf(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLLeafType[] | undefined {
  if (!plainShape(document)) return undefined;
  const types = new Map<ASTNode, GraphQLLeafType>();
  let fits = true;
  const typeInfo = new TypeInfo(schema);
  const atLiteral = (node: ASTNode): void => {
    const type = getNamedType(typeInfo.getInputType() ?? undefined);
    if (type !== undefined && isLeafType(type)) types.set(node, type);
    else fits = false;
  };
  visit(document, visitWithTypeInfo(typeInfo, { StringValue: atLiteral, IntValue: atLiteral, FloatValue: atLiteral }));
  const literals = literalsOf(document);
  const ordered = literals.map((node) => types.get(node));
  return fits && ordered.every((type) => type !== undefined) ? (ordered as GraphQLLeafType[]) : undefined;
}

/** Whether every literal of `document` parses as the type its shape has there (graphql-js's isValidValueNode for leaves). */
export function literalsFit(document: DocumentNode, types: readonly GraphQLLeafType[]): boolean {
  const literals = literalsOf(document);
  if (literals.length !== types.length) return false;
  for (let i = 0; i < literals.length; i++) {
    try {
      if (types[i]?.parseLiteral(literals[i] as never, undefined) === undefined) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** No variables, fragments or directive arguments, and no response name twice in one selection set. */
function plainShape(document: DocumentNode): boolean {
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || (definition.variableDefinitions?.length ?? 0) > 0) return false;
    if ((definition.directives?.length ?? 0) > 0 || !plainSelections(definition.selectionSet.selections)) return false;
  }
  return true;
}

function plainSelections(selections: readonly SelectionNode[]): boolean {
  const names = new Set<string>();
  for (const selection of selections) {
    if (selection.kind !== Kind.FIELD || (selection.directives?.length ?? 0) > 0) return false;
    const name = selection.alias?.value ?? selection.name.value;
    if (names.has(name)) return false;
    names.add(name);
    if (selection.selectionSet !== undefined && !plainSelections(selection.selectionSet.selections)) return false;
  }
  return true;
}

/** The string and number literals of a document, in a fixed walk order (the same for every document of a shape). */
function literalsOf(document: DocumentNode): Literal[] {
  const found: Literal[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const kind = (node as ASTNode).kind;
    if (kind === Kind.STRING || kind === Kind.INT || kind === Kind.FLOAT) {
      found.push(node as Literal);
      return;
    }
    for (const key in node) if (key !== 'loc') walk((node as Record<string, unknown>)[key]);
  };
  walk(document);
  return found;
}
