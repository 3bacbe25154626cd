// graphql-js's `validate`, with the same rules, order, errors and limits, minus its fixed cost per
// document: its visitInParallel resolves every rule's handlers for all 40-odd AST kinds up front
// (1,300+ look-ups, each allocating, for our 34 rules: a quarter of validating a small query, which
// every request with literals in its text pays on a document-cache miss). Here a kind's handlers
// are resolved the first time the document has a node of that kind, with the same skip/break rules,
// and which rules handle a kind is remembered across documents (`Shape`).

import { assertValidSchema, BREAK, GraphQLError, Kind, TypeInfo, ValidationContext, visit, visitWithTypeInfo, type ASTNode, type ASTVisitor, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { QueryDocumentKeys } from 'graphql/language/ast.js';
import { validationAbortedError } from 'graphql/validation/validationAbortedError.js';

type Handler = (this: ASTVisitor, ...args: unknown[]) => unknown;
interface EnterLeave {
  enter?: Handler;
  leave?: Handler;
}

const kinds: ReadonlySet<string> = new Set(Object.values(Kind));

/** graphql-js validate's visitor keys: descriptions do not affect validation. */
const keysToValidate = Object.fromEntries(Object.entries(QueryDocumentKeys).map(([kind, keys]) => [kind, (keys as readonly string[]).filter((key) => key !== 'description')]));

/** Same answer as `validate(schema, document, rules, { maxErrors })` of graphql-js 16. */
export function validateDocument(schema: GraphQLSchema, document: DocumentNode, rules: readonly ValidationRule[], maxErrors: number): GraphQLError[] {
  assertValidSchema(schema);
  const abort = Object.freeze({});
  const errors: GraphQLError[] = [];
  const typeInfo = new TypeInfo(schema);
  const context = new ValidationContext(schema, document, typeInfo, (error) => {
    if (errors.length >= maxErrors) {
      errors.push(new GraphQLError('Too many validation errors, error limit reached. Validation aborted.'));
      throw abort;
    }
    errors.push(error);
  });
  const visitors = rules.map((rule) => rule(context));
  const visitor = lazyParallel(shapeOf(rules, visitors), visitors);
  try {
    visit(document, visitWithTypeInfo(typeInfo, visitor), keysToValidate as never);
  } catch (error) {
    if (error === validationAbortedError) errors.push(validationAbortedError);
    else if (error !== abort) throw error;
  }
  return errors;
}

/**
 * Which visitors have handlers for each AST kind. Rules build a new visitor per document, but of the
 * same shape (the same keys) every time, so the per-kind lists are kept per rule list and reused while
 * every visitor still has the keys they were built from (checked per document: a visitor whose shape
 * changed rebuilds them).
 */
interface Shape {
  readonly keys: readonly (readonly string[])[];
  readonly byKind: Map<string, readonly number[] | undefined>;
}

const shapes = new WeakMap<readonly ValidationRule[], Shape>();

function shapeOf(rules: readonly ValidationRule[], visitors: readonly ASTVisitor[]): Shape {
  const cached = shapes.get(rules);
  if (cached !== undefined && sameKeys(cached.keys, visitors)) return cached;
  const shape: Shape = { keys: visitors.map((v) => Object.keys(v)), byKind: new Map() };
  shapes.set(rules, shape);
  return shape;
}

function sameKeys(keys: readonly (readonly string[])[], visitors: readonly ASTVisitor[]): boolean {
  for (let i = 0; i < visitors.length; i++) {
    const expected = keys[i] as readonly string[];
    let n = 0;
    for (const key in visitors[i]) if (expected[n++] !== key) return false;
    if (n !== expected.length) return false;
  }
  return true;
}

/** The visitors (indices) with an enter or leave handler for `kind`, as graphql-js's getEnterLeaveForKind finds them. */
function visitorsFor(shape: Shape, visitors: readonly ASTVisitor[], kind: string): readonly number[] | undefined {
  if (shape.byKind.has(kind)) return shape.byKind.get(kind);
  const found: number[] = [];
  for (let i = 0; i < visitors.length; i++) {
    const { enter, leave } = handlersOf(visitors[i] as ASTVisitor, kind);
    if (enter != null || leave != null) found.push(i);
  }
  const list = found.length === 0 ? undefined : found;
  shape.byKind.set(kind, list);
  return list;
}

const noHandlers: EnterLeave = {};

/** graphql-js's getEnterLeaveForKind, without allocating when the visitor has nothing for the kind. */
function handlersOf(visitor: ASTVisitor, kind: string): EnterLeave {
  const byKind = (visitor as Record<string, unknown>)[kind];
  if (typeof byKind === 'object' && byKind !== null) return byKind as EnterLeave;
  if (typeof byKind === 'function') return { enter: byKind as Handler };
  const { enter, leave } = visitor as EnterLeave;
  if (enter === undefined && leave === undefined) return noHandlers;
  return { ...(enter === undefined ? {} : { enter }), ...(leave === undefined ? {} : { leave }) };
}

/** A merged visitor: graphql-js reads `visitor[kind]`; each kind's handler is built on its first read. */
class LazyVisitor {
  readonly built = new Map<string, EnterLeave | undefined>();
  constructor(readonly build: (kind: string) => EnterLeave | undefined) {}
}
for (const kind of kinds) {
  Object.defineProperty(LazyVisitor.prototype, kind, {
    get(this: LazyVisitor) {
      const built = this.built;
      if (built.has(kind)) return built.get(kind);
      const handlers = this.build(kind);
      built.set(kind, handlers);
      return handlers;
    },
  });
}

/**
 * visitInParallel with each kind's merged handler built on first use (visitWithTypeInfo reads
 * `visitor[node.kind]` per node; `enter`/`leave` are absent, as in graphql-js's): `false` from enter skips that visitor's subtree, BREAK stops that visitor,
 * any other value returned ends the loop and is the merged result, as in graphql-js.
 */
function lazyParallel(shape: Shape, visitors: readonly ASTVisitor[]): ASTVisitor {
  const skipping: (ASTNode | typeof BREAK | null)[] = visitors.map(() => null);
  const build = (kind: string): EnterLeave | undefined => {
    const indices = visitorsFor(shape, visitors, kind);
    if (indices === undefined) return undefined;
    // This document's visitors' handlers for the kind (same keys as the shape, their own closures).
    const enters: (Handler | undefined)[] = [];
    const leaves: (Handler | undefined)[] = [];
    for (const i of indices) {
      const { enter, leave } = handlersOf(visitors[i] as ASTVisitor, kind);
      enters.push(enter);
      leaves.push(leave);
    }
    return {
      enter(...args: unknown[]) {
        const node = args[0] as ASTNode;
        for (let k = 0; k < indices.length; k++) {
          const i = indices[k] as number;
          if (skipping[i] !== null) continue;
          const result = enters[k]?.apply(visitors[i] as ASTVisitor, args);
          if (result === false) skipping[i] = node;
          else if (result === BREAK) skipping[i] = BREAK;
          else if (result !== undefined) return result;
        }
        return undefined;
      },
      leave(...args: unknown[]) {
        const node = args[0] as ASTNode;
        for (let k = 0; k < indices.length; k++) {
          const i = indices[k] as number;
          if (skipping[i] === null) {
            const result = leaves[k]?.apply(visitors[i] as ASTVisitor, args);
            if (result === BREAK) skipping[i] = BREAK;
            else if (result !== undefined && result !== false) return result;
          } else if (skipping[i] === node) skipping[i] = null;
        }
        return undefined;
      },
    };
  };
  return new LazyVisitor(build) as unknown as ASTVisitor;
}
