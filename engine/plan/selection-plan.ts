// Selection plans: an operation's selection sets flattened per concrete type (fragments, inline
// fragments and same-named fields merged), with each field's schema definitions resolved once.
// Built without touching data and cached per operation, so execution never walks the AST again.

import { compileArguments, hasVariables, type ArgumentsTemplate } from './argument-template.js';
import { collectFields, type CollectedFields, type FieldGroup } from './collect-fields.js';
import {
  Kind,
  visit,
  type ValueNode,
  type VariableNode,
  isAbstractType,
  isObjectType,
  isInterfaceType,
  getNamedType,
  type DirectiveNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

export interface FieldPlan {
  readonly responseName: string;
  readonly fieldName: string;
  /** Every occurrence of the field under this response name (arguments come from the first). */
  readonly nodes: readonly FieldNode[];
  /** `@skip`/`@include` directives per occurrence; the field runs if any occurrence is included. */
  readonly conditions: readonly (readonly DirectiveNode[])[];
  /** Some occurrence has no `@skip`/`@include`: the field always runs. */
  readonly unconditional: boolean;
  /** graphql-js definition (absent for `__typename`). */
  readonly definition: GraphQLField<unknown, unknown> | undefined;
  /** Sub-selection, for fields of object, interface or union type. */
  readonly selection: SelectionPlan | undefined;
  /** How the field's arguments are written, so execution can skip graphql-js coercion when it may. */
  readonly argumentShape: ArgumentShape;
}

/**
 * - `static`: no variables anywhere: the coerced values never change (coerce once);
 * - `variables`: every argument is exactly `$var`: the already-coerced variable values pass through;
 * - `mixed`: variables inside literals: coerce on every run.
 */
export type ArgumentShape =
  | { readonly kind: 'static' }
  | { readonly kind: 'variables'; readonly pairs: readonly (readonly [argument: string, variable: string])[]; readonly variables: readonly string[] }
  | { readonly kind: 'mixed'; readonly template: ArgumentsTemplate | undefined; readonly variables: readonly string[] };

function argumentShapeOf(node: FieldNode, definition: GraphQLField<unknown, unknown> | undefined): ArgumentShape {
  const args = node.arguments ?? [];
  if (args.every((a) => a.value.kind === Kind.VARIABLE)) {
    if (args.length === 0) return { kind: 'static' };
    const pairs = args.map((a) => [a.name.value, (a.value as VariableNode).name.value] as const);
    return { kind: 'variables', pairs, variables: pairs.map(([, variable]) => variable) };
  }
  if (!args.some((a) => hasVariables(a.value))) return { kind: 'static' };
  const template = definition === undefined ? undefined : compileArguments(definition, args);
  return { kind: 'mixed', template, variables: [...new Set(args.flatMap((a) => variablesIn(a.value)))] };
}

function variablesIn(node: ValueNode): string[] {
  const names: string[] = [];
  visit(node, { Variable: (variable) => void names.push(variable.name.value) });
  return names;
}

/** A field of an untyped interface or union result (`SelectionPlan.untyped`). */
export interface UntypedFieldPlan extends FieldPlan {
  /** The type the field was written on: the abstract type itself or a fragment's type condition. */
  readonly on: string;
}

/** The fields to produce for an object of a given concrete type, memoised per type. */
export class SelectionPlan {
  readonly #byType = new Map<string, readonly FieldPlan[]>();
  readonly #untyped = new Map<string, readonly UntypedFieldPlan[]>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly selectionSets: readonly SelectionSetNode[],
    private readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  ) {}

  /**
   * The fields of an interface or union result whose concrete type is unknown (under ACL without READ
   * on dgraph.type), as Dgraph completes them: every fragment's fields whatever its type condition,
   * one per response name (the first occurrence), each with the type it was written on (`on`: where
   * its value is read, and what `__typename` answers).
   */
  untyped(abstractName: string): readonly UntypedFieldPlan[] {
    let fields = this.#untyped.get(abstractName);
    if (fields === undefined) {
      const abstract = this.schema.getType(abstractName);
      if (abstract === undefined || !isAbstractType(abstract)) throw new Error(`untyped selection plan asked for non-abstract type ${abstractName}`);
      const grouped = (collectFields(this.selectionSets, this.fragments, () => true) as CollectedFields).groups;
      fields = [...grouped].map(([responseName, group]) => {
        const on = group.on ?? abstractName;
        const type = this.schema.getType(on);
        return { ...this.#plan(responseName, group, isObjectType(type) || isInterfaceType(type) ? type : undefined), on };
      });
      this.#untyped.set(abstractName, fields);
    }
    return fields;
  }

  forType(typeName: string): readonly FieldPlan[] {
    let fields = this.#byType.get(typeName);
    if (fields === undefined) {
      const type = this.schema.getType(typeName);
      if (!isObjectType(type)) throw new Error(`selection plan asked for non-object type ${typeName}`);
      fields = this.#collect(type);
      this.#byType.set(typeName, fields);
    }
    return fields;
  }

  #collect(type: GraphQLObjectType): readonly FieldPlan[] {
    // Bounded before execution (request/selection-bounds.ts), so no budget here.
    const grouped = (collectFields(this.selectionSets, this.fragments, (condition) => this.#applies(condition, type)) as CollectedFields).groups;

    return [...grouped].map(([responseName, group]) => this.#plan(responseName, group, type));
  }

  /** The plan of one response name's fields, their definition looked up on `type` (none for `__typename` or a union). */
  #plan(responseName: string, group: FieldGroup, type: GraphQLObjectType | GraphQLInterfaceType | undefined): FieldPlan {
    const first = group.nodes[0] as FieldNode;
    const fieldName = first.name.value;
    const definition = fieldName === '__typename' ? undefined : type?.getFields()[fieldName];
    const subSets = group.nodes.flatMap((n) => (n.selectionSet === undefined ? [] : [n.selectionSet]));
    const selection =
      definition !== undefined && subSets.length > 0 && isComposite(getNamedType(definition.type)) ? new SelectionPlan(this.schema, subSets, this.fragments) : undefined;
    return {
      responseName,
      fieldName,
      nodes: group.nodes,
      conditions: group.conditions,
      unconditional: group.conditions.some((c) => c.length === 0),
      definition,
      selection,
      argumentShape: argumentShapeOf(first, definition),
    };
  }

  #applies(condition: string, type: GraphQLObjectType): boolean {
    if (condition === type.name) return true;
    const conditionType = this.schema.getType(condition);
    return conditionType !== undefined && isAbstractType(conditionType) && this.schema.isSubType(conditionType, type);
  }
}

function isComposite(type: GraphQLNamedType): boolean {
  return isObjectType(type) || isAbstractType(type);
}
