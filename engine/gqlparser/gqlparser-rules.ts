// graphql-js's validation rules whose errors gqlparser (Dgraph's validator) words or places otherwise:
// "Did you mean" candidates chosen and ordered as gqlparser does (suggestion-list.ts), unknown
// arguments reported at their field or directive name, any directive at its name (not at `@`),
// fragment spreads at the fragment's name (not at `...`), an inline fragment at the token after `...`,
// a fragment cycle at its closing spread only.

import {
  FieldsOnCorrectTypeRule,
  FragmentsOnCompositeTypesRule,
  GraphQLError,
  Kind,
  KnownArgumentNamesRule,
  KnownDirectivesRule,
  ProvidedRequiredArgumentsRule,
  UniqueDirectivesPerLocationRule,
  NoFragmentCyclesRule,
  PossibleFragmentSpreadsRule,
  ValuesOfCorrectTypeRule,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  type ASTNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { quotedOrList, suggestQuoted, suggestUnquoted } from './suggestion-list.js';

/** An error at one UTF-16 offset of the document (gqlparser's token positions). */
function errorAt(context: ValidationContext, message: string, position: number | undefined): GraphQLError {
  const source = context.getDocument().loc?.source;
  return new GraphQLError(message, source !== undefined && position !== undefined ? { source, positions: [position] } : {});
}

/** The token after `...` of a fragment spread or inline fragment: where gqlparser places it. */
function afterSpread(node: ASTNode | undefined): number | undefined {
  return node?.loc?.startToken.next?.start;
}

/** `rule` run with a context whose reported errors go through `reword` first. */
function reworded(rule: ValidationRule, reword: (error: GraphQLError, context: ValidationContext) => GraphQLError): ValidationRule {
  return (context) => {
    const proxy = Object.create(context) as ValidationContext;
    proxy.reportError = (error: GraphQLError) => context.reportError(reword(error, context));
    return rule(proxy);
  };
}

/** gqlparser's getSuggestedTypeNames: interfaces by how many possible types use them, then the possible types. */
function suggestedTypeNames(schema: GraphQLSchema, parent: GraphQLCompositeType, field: string): string[] {
  if (!isAbstractType(parent)) return [];
  const objects: string[] = [];
  const interfaceUses = new Map<string, number>();
  for (const possible of schema.getPossibleTypes(parent)) {
    if (possible.getFields()[field] === undefined) continue;
    objects.push(possible.name);
    for (const iface of possible.getInterfaces()) {
      if (iface.getFields()[field] !== undefined) interfaceUses.set(iface.name, (interfaceUses.get(iface.name) ?? 0) + 1);
    }
  }
  const interfaces = [...interfaceUses.keys()].sort((a, b) => (interfaceUses.get(b) ?? 0) - (interfaceUses.get(a) ?? 0));
  return [...interfaces, ...objects];
}

const fieldsOnCorrectType: ValidationRule = (context) => ({
  Field(node: FieldNode) {
    const parent = context.getParentType();
    if (parent == null || context.getFieldDef() != null) return;
    const name = node.name.value;
    let message = `Cannot query field "${name}" on type "${parent.name}".`;
    const types = suggestedTypeNames(context.getSchema(), parent, name);
    if (types.length > 0) message += ` Did you mean to use an inline fragment on ${quotedOrList(types)}?`;
    else if (isObjectType(parent) || isInterfaceType(parent)) message += suggestQuoted('Did you mean', name, Object.keys(parent.getFields()));
    context.reportError(new GraphQLError(message, { nodes: node }));
  },
});

/** gqlparser reports an unknown argument at its field (alias included) or at the directive's name. */
const knownArgumentNames: ValidationRule = (context) => ({
  Field(node) {
    const definition = context.getFieldDef();
    const parent = context.getParentType();
    if (definition == null || parent == null || node.arguments === undefined || node.arguments.length === 0) return;
    const known = definition.args.map((a) => a.name);
    for (const argument of node.arguments) {
      const name = argument.name.value;
      if (known.includes(name)) continue;
      const message = `Unknown argument "${name}" on field "${node.name.value}" of type "${parent.name}".`;
      context.reportError(new GraphQLError(message + suggestQuoted('Did you mean', name, known), { nodes: node }));
    }
  },
  Directive(node) {
    const directive = context.getDirective();
    if (directive == null || node.arguments === undefined || node.arguments.length === 0) return;
    const known = directive.args.map((a) => a.name);
    for (const argument of node.arguments) {
      const name = argument.name.value;
      if (known.includes(name)) continue;
      const message = `Unknown argument "${name}" on directive "@${node.name.value}".`;
      context.reportError(new GraphQLError(message + suggestQuoted('Did you mean', name, known), { nodes: node.name }));
    }
  },
});

/** An unknown input field or enum value, in gqlparser's words with its suggestions. */
const valuesOfCorrectType = reworded(ValuesOfCorrectTypeRule, (error, context) => {
  const undefinedField = /^Field "([^"]*)" is not defined by type "([^"]*)"\./.exec(error.message);
  if (undefinedField !== null) {
    const [, name = '', typeName = ''] = undefinedField;
    const type = context.getSchema().getType(typeName);
    const fields = isInputObjectType(type) ? Object.keys(type.getFields()) : [];
    return new GraphQLError(`Field "${name}" is not defined by type ${typeName}.${suggestUnquoted('Did you mean', name, fields)}`, { nodes: error.nodes ?? [] });
  }
  const expected = context.getInputType();
  const enumType = getNamedType(expected ?? undefined);
  const node = error.nodes?.[0];
  if (expected == null || !isEnumType(enumType) || (node?.kind !== Kind.ENUM && node?.kind !== Kind.STRING)) return error;
  if (!/^(?:Value "[^"]*" does not exist in "[^"]*" enum\.|Enum "[^"]*" cannot represent non-enum value: )/.test(error.message)) return error;
  const raw = node.value;
  const found = node.kind === Kind.STRING ? JSON.stringify(raw) : raw;
  const values = enumType.getValues().map((v) => v.name);
  return new GraphQLError(`Expected type ${String(expected)}, found ${found}.${suggestUnquoted('Did you mean the enum value', raw, values)}`, { nodes: node });
});

/** A cycle is reported once, at the name of the spread that closes it. */
const noFragmentCycles = reworded(NoFragmentCyclesRule, (error) => {
  const last = error.nodes?.[error.nodes.length - 1];
  return last?.kind === Kind.FRAGMENT_SPREAD ? new GraphQLError(error.message, { nodes: last.name }) : error;
});

/** A spread that can never apply: at the fragment's name, or at the token after an inline fragment's `...`. */
const possibleFragmentSpreads = reworded(PossibleFragmentSpreadsRule, (error, context) => {
  const node = error.nodes?.[0];
  if (node?.kind === Kind.FRAGMENT_SPREAD) return new GraphQLError(error.message, { nodes: node.name });
  if (node?.kind === Kind.INLINE_FRAGMENT) return errorAt(context, error.message, afterSpread(node));
  return error;
});

/** A fragment on a scalar: at an inline fragment's `on`, at a fragment definition's `fragment`. */
const fragmentsOnCompositeTypes = reworded(FragmentsOnCompositeTypesRule, (error, context) => {
  const node = error.nodes?.[0];
  const at = node?.loc?.startToken.prev;
  if (node?.kind !== Kind.NAMED_TYPE || at == null) return error;
  // graphql-js points at the type condition: the token before it is `on`, two before a definition's `fragment`.
  const definition = error.message.startsWith('Fragment "');
  return errorAt(context, error.message, definition ? at.prev?.prev?.start : at.start);
});

/** gqlparser places a directive at its name, graphql-js at its `@`. */
function directivesAtName(rule: ValidationRule): ValidationRule {
  return reworded(rule, (error) => {
    const nodes = error.nodes ?? [];
    if (!nodes.some((n) => n.kind === Kind.DIRECTIVE)) return error;
    return new GraphQLError(error.message, { nodes: nodes.map((n) => (n.kind === Kind.DIRECTIVE ? n.name : n)) });
  });
}

export const noFragmentCyclesAt = noFragmentCycles;

/** Dgraph's rules in place of graphql-js's, by the graphql-js rule they replace. */
export const gqlparserRules: ReadonlyMap<ValidationRule, ValidationRule> = new Map([
  [FieldsOnCorrectTypeRule, fieldsOnCorrectType],
  [KnownArgumentNamesRule, knownArgumentNames],
  [ValuesOfCorrectTypeRule, valuesOfCorrectType],
  [NoFragmentCyclesRule, noFragmentCycles],
  [PossibleFragmentSpreadsRule, possibleFragmentSpreads],
  [FragmentsOnCompositeTypesRule, fragmentsOnCompositeTypes],
  [KnownDirectivesRule, directivesAtName(KnownDirectivesRule)],
  [UniqueDirectivesPerLocationRule, directivesAtName(UniqueDirectivesPerLocationRule)],
  [ProvidedRequiredArgumentsRule, directivesAtName(ProvidedRequiredArgumentsRule)],
]);

/** Unknown type of a fragment definition: gqlparser suggests among all the schema's types. */
export function unknownFragmentTypeMessage(schema: GraphQLSchema, name: string): string {
  return `Unknown type "${name}".${suggestQuoted('Did you mean', name, Object.keys(schema.getTypeMap()))}`;
}
