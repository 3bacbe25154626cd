// Dgraph's request checks on values given through variables, run after coercion (the literal forms
// are validation rules in dgraph-rules.ts): @cascade field names, and one function per built-in filter.
// Where variables are used is found once per cached document; only those variables are looked at.

import {
  GraphQLError,
  TypeInfo,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  visit,
  visitWithTypeInfo,
  Kind,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type ASTNode,
  type ASTVisitor,
  type ValidationRule,
} from 'graphql';
import { singleFunctionFilters } from '../gqlparser/dgraph-rules.js';
import { messages } from '../errors/messages.js';

interface CascadeUse {
  readonly kind: 'cascade';
  readonly variable: string;
  readonly typeName: string;
  readonly fields: ReadonlySet<string>;
  readonly node: ASTNode;
}

interface FilterUse {
  readonly kind: 'filter';
  readonly variable: string;
  readonly type: GraphQLInputType;
  readonly node: ASTNode;
}

type VariableUse = CascadeUse | FilterUse;

const usesByDocument = new WeakMap<DocumentNode, readonly VariableUse[]>();

/** Input types that are, or can contain, a single-function filter (memoised per type object). */
const reachesFilter = new WeakMap<object, boolean>();

function canHoldFilter(type: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return false;
  const cached = reachesFilter.get(named);
  if (cached !== undefined) return cached;
  if (singleFunctionFilters.has(named.name)) return true;
  if (seen.has(named.name)) return false;
  const top = seen.size === 0;
  seen.add(named.name);
  const result = Object.values(named.getFields()).some((f) => canHoldFilter(f.type, seen));
  if (top || result) reachesFilter.set(named, result);
  return result;
}

function variableUses(schema: GraphQLSchema, document: DocumentNode): readonly VariableUse[] {
  const cached = usesByDocument.get(document);
  if (cached !== undefined) return cached;
  // Validation collects them (collectVariableUses); this visit is for documents run unvalidated.
  const uses: VariableUse[] = [];
  const typeInfo = new TypeInfo(schema);
  visit(document, visitWithTypeInfo(typeInfo, useCollector(uses, typeInfo)));
  usesByDocument.set(document, uses);
  return uses;
}

/** Where the document uses variables that Dgraph checks, read from the type information of the visit. */
function useCollector(uses: VariableUse[], types: Pick<TypeInfo, 'getType' | 'getInputType'>): ASTVisitor {
  return {
    VariableDefinition: () => false, // the declarations themselves are not uses
    Directive(node) {
      if (node.name.value !== 'cascade') return;
      const arg = node.arguments?.find((a) => a.name.value === 'fields');
      if (arg?.value.kind !== Kind.VARIABLE) return;
      const type = getNamedType(types.getType() ?? undefined);
      if (!isObjectType(type) && !isInterfaceType(type)) return;
      uses.push({ kind: 'cascade', variable: arg.value.name.value, typeName: type.name, fields: new Set(Object.keys(type.getFields())), node: node.name });
    },
    Variable(node) {
      const type = types.getInputType();
      if (type !== null && type !== undefined && canHoldFilter(type)) uses.push({ kind: 'filter', variable: node.name.value, type, node });
    },
  };
}

/**
 * A validation rule that reports nothing: it finds the variable uses during validation's own visit
 * (which has the type information), so a new document is not visited a third time for them. They are
 * kept only once the visit reached the document's end (an aborted validation keeps nothing).
 */
export const collectVariableUses: ValidationRule = (context) => {
  const uses: VariableUse[] = [];
  return {
    ...useCollector(uses, context),
    Document: { leave: (node: DocumentNode) => void usesByDocument.set(node, uses) },
  };
};

/** The request errors for values given through variables (empty when all is well). */
export function checkVariableValues(schema: GraphQLSchema, document: DocumentNode, values: Readonly<Record<string, unknown>>): GraphQLError[] {
  const errors: GraphQLError[] = [];
  for (const use of variableUses(schema, document)) {
    const value = values[use.variable];
    if (value === undefined || value === null) continue;
    if (use.kind === 'cascade') {
      for (const name of Array.isArray(value) ? value : [value]) {
        if (typeof name !== 'string' || use.fields.has(name)) continue;
        errors.push(
          new GraphQLError(
            `input: variables.${use.variable}.${name} Field \`${name}\` is not present in type \`${use.typeName}\`. You can only use fields in cascade which are in type \`${use.typeName}\``,
            { nodes: use.node },
          ),
        );
        break;
      }
    } else {
      const message = filterError(value, use.type);
      if (message !== undefined) errors.push(new GraphQLError(message, { nodes: use.node }));
    }
  }
  return errors;
}

function filterError(value: unknown, type: GraphQLInputType): string | undefined {
  if (isNonNullType(type)) return filterError(value, type.ofType);
  if (isListType(type)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const error = filterError(item, type.ofType);
      if (error !== undefined) return error;
    }
    return undefined;
  }
  if (!isInputObjectType(type) || typeof value !== 'object' || value === null) return undefined;
  const keys = Object.keys(value);
  if (singleFunctionFilters.has(type.name) && keys.length > 1) return messages.oneFilterFunction(type.name, keys.length);
  const fields = type.getFields();
  for (const key of keys) {
    const field = fields[key];
    const error = field === undefined ? undefined : filterError((value as Record<string, unknown>)[key], field.type);
    if (error !== undefined) return error;
  }
  return undefined;
}
