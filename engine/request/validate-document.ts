// graphql-js's `validate`, with the same rules, order, errors and limits, minus its fixed cost per
// document: its visitInParallel resolves every rule's handlers for all 40-odd AST kinds up front
// (1,300+ look-ups, each allocating, for our 34 rules: a quarter of validating a small query, which
// every request with literals in its text pays on a document-cache miss). Here a kind's handlers
// are resolved the first time the document has a node of that kind, with the same skip/break rules.

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
  const visitor = lazyParallel(rules.map((rule) => rule(context)));
  try {
    visit(document, visitWithTypeInfo(typeInfo, visitor), keysToValidate as never);
  } catch (error) {
    if (error === validationAbortedError) errors.push(validationAbortedError);
    else if (error !== abort) throw error;
  }
  return errors;
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
function lazyParallel(visitors: readonly ASTVisitor[]): ASTVisitor {
  const skipping: (ASTNode | typeof BREAK | null)[] = visitors.map(() => null);
  const build = (kind: string): EnterLeave | undefined => {
    const enters: (Handler | undefined)[] = [];
    const leaves: (Handler | undefined)[] = [];
    let any = false;
    for (const visitor of visitors) {
      const { enter, leave } = handlersOf(visitor, kind);
      enters.push(enter);
      leaves.push(leave);
      any ||= enter != null || leave != null;
    }
    if (!any) return undefined;
    return {
      enter(...args: unknown[]) {
        const node = args[0] as ASTNode;
        for (let i = 0; i < visitors.length; i++) {
          if (skipping[i] !== null) continue;
          const result = enters[i]?.apply(visitors[i] as ASTVisitor, args);
          if (result === false) skipping[i] = node;
          else if (result === BREAK) skipping[i] = BREAK;
          else if (result !== undefined) return result;
        }
        return undefined;
      },
      leave(...args: unknown[]) {
        const node = args[0] as ASTNode;
        for (let i = 0; i < visitors.length; i++) {
          if (skipping[i] === null) {
            const result = leaves[i]?.apply(visitors[i] as ASTVisitor, args);
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
