// The `@auth` rules of a schema, compiled once per upload into one rule tree per type and operation.
// Leaves are RBAC tests on claims or graph-traversal queries (parsed here, run by rule-eval.ts).
// Rules are already validated (schema/validators/auth-rules.ts): what does not parse is skipped.

import { Kind, parse, type FieldNode, type OperationDefinitionNode, type TypeNode, type VariableDefinitionNode } from 'graphql';
import type { Value } from '../schema/sdl-ast.js';
import { findChild, findDirective } from '../schema/sdl-ast.js';
import { parseSdl } from '../schema/parse-sdl.js';
import type { SchemaModel } from '../schema/model.js';

export type AuthOperation = 'query' | 'add' | 'update' | 'delete' | 'password';

export interface RbacLeaf {
  readonly kind: 'rbac';
  /** The claim's name, without `$`. */
  readonly variable: string;
  readonly operator: 'eq' | 'in' | 'regexp';
  readonly operand: unknown;
  readonly regex: RegExp | undefined;
}

export interface GraphLeaf {
  readonly kind: 'graph';
  /** The rule's root field (`queryT(filter: …) { … }`) and the operation declaring its variables. */
  readonly operation: OperationDefinitionNode;
  readonly root: FieldNode;
  readonly variables: readonly VariableDefinitionNode[];
  /** The variables of a scalar type a claim of another JSON kind may still fill, as in Dgraph (rule-eval.ts `asDgraphWritesThem`). */
  readonly scalars: readonly { readonly name: string; readonly type: 'Boolean' | 'Int' | 'Float' | 'String' }[];
}

export type RuleNode =
  | RbacLeaf
  | GraphLeaf
  | { readonly kind: 'and'; readonly rules: readonly RuleNode[] }
  | { readonly kind: 'or'; readonly rules: readonly RuleNode[] }
  | { readonly kind: 'not'; readonly rule: RuleNode };

/** Dgraph's RBAC rule shape (the same pattern as the upload validator). */
const RBAC = /^{[\s]?(.*?)[\s]?:[\s]?{[\s]?(\w*)[\s]?:[\s]?(.*)[\s]?}[\s]?}$/s;

export class AuthRules {
  /**
   * Per object type and operation: the rules that must all pass, the type's own first, then each
   * interface's (Dgraph checks an implementation against both).
   */
  readonly #rules = new Map<string, Map<AuthOperation, readonly RuleNode[]>>();

  constructor(sdl: string, model: SchemaModel) {
    const parsed = parseSdl(sdl);
    if (!parsed.ok) return;
    const own = new Map<string, Map<AuthOperation, RuleNode>>();
    for (const definition of parsed.definitions) {
      const directive = findDirective(definition.directives, 'auth');
      if (directive === undefined) continue;
      const byOperation = new Map<AuthOperation, RuleNode>();
      for (const argument of directive.args) {
        const node = compileNode(argument.value);
        if (node !== undefined) byOperation.set(argument.name as AuthOperation, node);
      }
      own.set(definition.name, byOperation);
    }
    for (const type of model.types.values()) {
      if (type.kind !== 'object') continue;
      const byOperation = new Map<AuthOperation, RuleNode[]>();
      for (const name of [type.name, ...type.interfaces]) {
        for (const [operation, node] of own.get(name) ?? []) {
          let list = byOperation.get(operation);
          if (list === undefined) byOperation.set(operation, (list = []));
          list.push(node);
        }
      }
      if (byOperation.size > 0) this.#rules.set(type.name, byOperation);
    }
  }

  /** The rules an object type's nodes must all pass for `operation` (empty: unrestricted). */
  rulesOf(typeName: string, operation: AuthOperation): readonly RuleNode[] {
    return this.#rules.get(typeName)?.get(operation) ?? [];
  }

  /** Whether no object type has a rule (then requests need no auth work at all). */
  get empty(): boolean {
    return this.#rules.size === 0;
  }
}

function compileNode(value: Value): RuleNode | undefined {
  const or = findChild(value, 'or')?.value;
  if (or !== undefined && or.children.length > 0) return { kind: 'or', rules: compileList(or) };
  const and = findChild(value, 'and')?.value;
  if (and !== undefined && and.children.length > 0) return { kind: 'and', rules: compileList(and) };
  const not = findChild(value, 'not')?.value;
  if (not !== undefined && not.children.length > 0) {
    const rule = compileNode(not);
    return rule === undefined ? undefined : { kind: 'not', rule };
  }
  const rule = findChild(value, 'rule')?.value;
  if (rule === undefined) return undefined;
  const text = rule.raw.trim();
  return text.startsWith('{') ? compileRbac(text) : compileGraph(rule.raw);
}

function compileList(value: Value): RuleNode[] {
  return value.children.flatMap((child) => {
    const node = compileNode(child.value);
    return node === undefined ? [] : [node];
  });
}

function compileRbac(text: string): RbacLeaf | undefined {
  const match = RBAC.exec(text);
  if (match === null) return undefined;
  const operator = match[2] as RbacLeaf['operator'];
  let operand: unknown;
  try {
    operand = JSON.parse(match[3] ?? '');
  } catch {
    return undefined;
  }
  // Go's regexp (RE2) syntax: the same as JavaScript's for the patterns rules use.
  const regex = operator === 'regexp' && typeof operand === 'string' ? new RegExp(operand) : undefined;
  return { kind: 'rbac', variable: (match[1] ?? '').slice(1), operator, operand, regex };
}

function compileGraph(text: string): GraphLeaf | undefined {
  let operation: OperationDefinitionNode | undefined;
  try {
    operation = parse(text).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  } catch {
    return undefined;
  }
  const root = operation?.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
  if (operation === undefined || root === undefined) return undefined;
  const variables = operation.variableDefinitions ?? [];
  const scalars: { name: string; type: 'Boolean' | 'Int' | 'Float' | 'String' }[] = [];
  for (const v of variables) {
    const type = namedType(v.type);
    if (type === 'Boolean' || type === 'Int' || type === 'Float' || type === 'String') scalars.push({ name: v.variable.name.value, type });
  }
  return { kind: 'graph', operation, root, variables, scalars };
}

function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}
