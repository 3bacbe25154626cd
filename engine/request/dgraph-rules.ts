// Dgraph's own request checks on literals, run with graphql-js's rules: @cascade field names exist
// in the field's type, and a built-in filter input holds exactly one function.

import { GraphQLError, getNamedType, isInputObjectType, isObjectType, isInterfaceType, Kind, type ValidationRule } from 'graphql';

const singleFunctionFilters = new Set([
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
    context.reportError(new GraphQLError(`${type.name} filter expects only one filter function, got: ${node.fields.length}`, { nodes: node }));
  },
});

export const dgraphRules: readonly ValidationRule[] = [cascadeFields, oneFilterFunction];
