// Dgraph's own request checks on literals, run with graphql-js's rules: @cascade field names exist
// in the field's type, and a built-in filter input holds exactly one function.

import {
  GraphQLError,
  KnownTypeNamesRule,
  OverlappingFieldsCanBeMergedRule,
  ValuesOfCorrectTypeRule,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isTypeSubTypeOf,
  Kind,
  OperationTypeNode,
  print,
  specifiedRules,
  typeFromAST,
  type GraphQLInputType,
  type NamedTypeNode,
  type TypeNode,
  type VariableDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { messages } from '../errors/messages.js';
import { gqlparserRules, unknownFragmentTypeMessage } from './gqlparser-rules.js';

export const singleFunctionFilters: ReadonlySet<string> = new Set([
  'StringHashFilter', 'StringExactFilter', 'StringFullTextFilter', 'StringRegExpFilter', 'StringNgramFilter', 'StringTermFilter',
  'DateTimeFilter', 'FloatFilter', 'Int64Filter', 'IntFilter', 'PointGeoFilter', 'ContainsFilter', 'IntersectsFilter', 'PolygonGeoFilter',
]);

const cascadeFields: ValidationRule = (context) => ({
  Directive(node) {
    if (node.name.value !== 'cascade') return;
    const arg = node.arguments?.find((a) => a.name.value === 'fields');
    if (arg === undefined || arg.value.kind !== Kind.LIST) return;
    const type = getNamedType(context.getType() ?? undefined);
    if (!isObjectType(type) && !isInterfaceType(type)) return;
    const fields = type.getFields();
    for (const value of arg.value.values) {
      if (value.kind !== Kind.STRING || value.value in fields) continue;
      context.reportError(
        new GraphQLError(
          `Field \`${value.value}\` is not present in type \`${type.name}\`. You can only use fields in cascade which are in type \`${type.name}\``,
          { nodes: node.name },
        ),
      );
      return;
    }
  },
});

const oneFilterFunction: ValidationRule = (context) => ({
  ObjectValue(node) {
    const type = getNamedType(context.getInputType() ?? undefined);
    if (!isInputObjectType(type) || !singleFunctionFilters.has(type.name) || node.fields.length <= 1) return;
    context.reportError(new GraphQLError(messages.oneFilterFunction(type.name, node.fields.length), { nodes: node }));
  },
});

/** gqlparser's own wording for a variable whose declared type is unknown or does not fit where it is used. */
const variableTypeFits: ValidationRule = (context) => {
  const declared = new Map<string, VariableDefinitionNode>();
  return {
    OperationDefinition(node) {
      declared.clear();
      for (const definition of node.variableDefinitions ?? []) declared.set(definition.variable.name.value, definition);
    },
    Variable(node) {
      const expected = context.getInputType();
      const definition = declared.get(node.name.value);
      if (expected === null || expected === undefined || definition === undefined) return;
      const typeNode = definition.type;
      const schema = context.getSchema();
      const type = typeFromAST(schema, typeNode) as GraphQLInputType | undefined;
      if (type !== undefined && isTypeSubTypeOf(schema, type, expected)) return;
      // A nullable variable with a default value may stand where a non-null value is expected.
      if (type !== undefined && definition.defaultValue !== undefined && isNonNullType(expected) && isTypeSubTypeOf(schema, type, expected.ofType)) return;
      context.reportError(
        new GraphQLError(`Variable type provided ${print(typeNode)} is incompatible with expected type ${String(expected)}`, { nodes: node }),
      );
      // graphql-js's VariablesInAllowedPosition skips a variable of an unknown type; gqlparser's does not.
      if (type === undefined) {
        context.reportError(
          new GraphQLError(`Variable "$${node.name.value}" of type "${print(typeNode)}" used in position expecting type "${String(expected)}".`, { nodes: node }),
        );
      }
    },
  };
};

function namedTypeOf(type: TypeNode): NamedTypeNode {
  return type.kind === Kind.NAMED_TYPE ? type : namedTypeOf(type.type);
}

/**
 * gqlparser's KnownTypeNames: an unknown variable type is reported once per variable at the operation
 * (after the operation's other errors), an inline fragment's at its `on`, a fragment's at `fragment`
 * (only this one with suggestions).
 */
const knownTypeNames: ValidationRule = (context) => {
  const unknown = (name: NamedTypeNode): boolean => context.getSchema().getType(name.name.value) == null;
  const report = (name: string, position: number | undefined, message = `Unknown type "${name}".`): void => {
    const source = context.getDocument().loc?.source;
    const at = source !== undefined && position !== undefined ? { source, positions: [position] } : {};
    context.reportError(new GraphQLError(message, at));
  };
  return {
    OperationDefinition: {
      leave(node) {
        for (const definition of node.variableDefinitions ?? []) {
          const named = namedTypeOf(definition.type);
          if (unknown(named)) report(named.name.value, node.loc?.start);
        }
      },
    },
    InlineFragment(node) {
      if (node.typeCondition === undefined || !unknown(node.typeCondition)) return;
      report(node.typeCondition.name.value, node.typeCondition.loc?.startToken.prev?.start);
    },
    FragmentDefinition(node) {
      const name = node.typeCondition.name.value;
      if (unknown(node.typeCondition)) report(name, node.loc?.start, unknownFragmentTypeMessage(context.getSchema(), name));
    },
  };
};

/**
 * An operation whose root type the schema lacks (graphql-js leaves it to execution): gqlparser's
 * KnownRootType wording for mutations, Dgraph's own (request.go, no location) for subscriptions.
 */
const knownRootType: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (context.getSchema().getRootType(node.operation) != null) return;
    if (node.operation === OperationTypeNode.SUBSCRIPTION) context.reportError(new GraphQLError(messages.noSubscriptionFields));
    else context.reportError(new GraphQLError(messages.unsupportedOperation(node.operation), { nodes: node }));
  },
});

const dgraphRules: readonly ValidationRule[] = [cascadeFields, oneFilterFunction, variableTypeFits, knownRootType];

/** The rules a request document is validated with: graphql-js's, those gqlparser words otherwise in its form, then Dgraph's. */
export const requestRules: readonly ValidationRule[] = [
  ...specifiedRules.map((rule) => (rule === KnownTypeNamesRule ? knownTypeNames : (gqlparserRules.get(rule) ?? rule))),
  ...dgraphRules,
];

/**
 * The rules of `requestRules` whose answer depends on the values of string and number literals (scalar
 * parsing, argument values that make two same-named fields conflict, @cascade's field names); every
 * other rule answers alike for documents that differ only in those values (request/literal-shape.ts).
 */
export const literalRules: readonly ValidationRule[] = [
  gqlparserRules.get(ValuesOfCorrectTypeRule) ?? ValuesOfCorrectTypeRule,
  gqlparserRules.get(OverlappingFieldsCanBeMergedRule) ?? OverlappingFieldsCanBeMergedRule,
  cascadeFields,
];

/** gqlparser reports the variable-type mismatch before the other errors of the document. */
export function inDgraphOrder<E extends { readonly message: string }>(errors: readonly E[]): E[] {
  const first = errors.filter((e) => e.message.startsWith('Variable type provided '));
  return first.length === 0 ? [...errors] : [...first, ...errors.filter((e) => !first.includes(e))];
}
