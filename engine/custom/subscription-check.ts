// Custom HTTP fields (`@custom(http:)`, `@lambda`) cannot be subscribed to (REFERENCE §12): a
// subscription whose selection reaches one is refused before it runs. `@custom(dql:)` roots are allowed.

import { getNamedType, isObjectType, isInterfaceType, type FragmentDefinitionNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { wireError, type WireError } from '../errors/wire-error.js';
import type { SchemaModel } from '../schema/model.js';

export function customFieldInSubscription(
  schema: GraphQLSchema,
  model: SchemaModel,
  selectionSet: SelectionSetNode,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
): WireError | undefined {
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode, parentType: string, root: boolean): WireError | undefined => {
    for (const selection of set.selections) {
      let found: WireError | undefined;
      if (selection.kind === 'InlineFragment') found = walk(selection.selectionSet, selection.typeCondition?.name.value ?? parentType, root);
      else if (selection.kind === 'FragmentSpread') {
        const fragment = fragments[selection.name.value];
        if (fragment !== undefined && !seen.has(fragment.name.value)) {
          seen.add(fragment.name.value);
          found = walk(fragment.selectionSet, fragment.typeCondition.name.value, root);
        }
      } else {
        const name = selection.name.value;
        const custom = root ? undefined : model.types.get(parentType)?.fields.get(name)?.custom;
        if (custom?.http !== undefined) {
          const start = selection.loc?.startToken;
          return wireError(
            `Custom field \`${name}\` is not supported in graphql subscription`,
            start === undefined ? undefined : [{ line: start.line, column: start.column }],
          );
        }
        const parent = schema.getType(parentType);
        const definition = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
        if (selection.selectionSet !== undefined && definition !== undefined) {
          found = walk(selection.selectionSet, getNamedType(definition.type).name, false);
        }
      }
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(selectionSet, 'Subscription', true);
}
