// Request stage: text → parsed, validated document → the one operation to run with coerced variables.
// Everything here is rejected before execution, so every failure is a `request-error` (no `data`).

import {
  GraphQLError,
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLLeafType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { getVariableValues } from 'graphql';
import type { GraphQLRequest, ResponseKind } from '../api.js';
import { messages } from '../errors/messages.js';
import { wireError, type WireError } from '../errors/wire-error.js';
import { maxDocumentNesting, maxNesting } from './depth-guard.js';
import { blankEmptyArguments } from './empty-arguments.js';
import { replaceLoneSurrogateEscapes } from './lone-surrogates.js';
import { coerceVariablesFast } from './compiled-variables.js';
import { LruCache } from './document-cache.js';
import { cacheCounters } from '../util/cache-stats.js';
import { toDgraphLocations, toDgraphMessage } from '../gqlparser/dgraph-messages.js';
import { inDgraphOrder, literalRules, requestRules } from '../gqlparser/dgraph-rules.js';
import { noFragmentCyclesAt } from '../gqlparser/gqlparser-rules.js';
import { hasFloatText } from './json-numbers.js';
import { unwrapFloatText, variableError } from './variable-errors.js';
import { checkVariableValues, collectVariableUses } from './variable-rules.js';
import { selectionBoundsError } from './selection-bounds.js';
import { toGqlparserSyntax } from '../gqlparser/syntax-errors.js';
import { typeSystemDefinitionError } from './type-system-definition.js';
import { findFragmentCycles } from './fragment-cycles.js';
import { validateDocument } from './validate-document.js';
import { literalShape } from './literal-shape.js';
import { literalsFit, literalTypesOf } from './literal-check.js';

const defaultMaxQuerySelections = 20_000;

/** Past this many fragments, cycles are looked for by findFragmentCycles instead of graphql-js's rule. */
const manyFragments = 50;
// Both lists end with the collector of variable uses (variable-rules.ts), which reports nothing.
const allRules: readonly ValidationRule[] = [...requestRules, collectVariableUses];
const rulesButCycles: readonly ValidationRule[] = allRules.filter((rule) => rule !== noFragmentCyclesAt);
/** A document whose shape passed validation before needs only the rules that read literal values. */
const knownShapeRules: readonly ValidationRule[] = [...literalRules, collectVariableUses];

export interface RequestLimits {
  readonly maxQueryTokens: number;
  readonly maxQueryDepth: number;
  /** Selections visited to resolve one operation, fragments expanded (default 20000). */
  readonly maxQuerySelections?: number;
  /** Off only for the no-schema state, where every root field is answered with an error instead. */
  readonly validate?: boolean;
}

/** A parsed and validated document, cached by its text. */
export interface CheckedDocument {
  readonly document: DocumentNode;
  readonly operations: readonly OperationDefinitionNode[];
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
}

export interface PreparedOperation {
  readonly checked: CheckedDocument;
  readonly operation: OperationDefinitionNode;
  readonly variables: Readonly<Record<string, unknown>>;
}

export type Prepared =
  | { readonly ok: true; readonly prepared: PreparedOperation }
  | { readonly ok: false; readonly kind: Exclude<ResponseKind, 'ok'>; readonly errors: readonly WireError[] };

/** A shape that passed validation: `types` when its literals can be checked without the rules (literal-check.ts). */
interface KnownShape {
  /** Found when the shape comes again (most new shapes never do): false when it needs the rules. */
  types: readonly GraphQLLeafType[] | false | undefined;
}

type CacheEntry = { readonly ok: true; readonly checked: CheckedDocument } | { readonly ok: false; readonly errors: readonly WireError[] };

/** Prepares requests against one API schema; a new schema gets a new preparer (and so a fresh cache). */
export class RequestPreparer {
  readonly #documents = new LruCache<CacheEntry>(1000);
  /** literal-shape.ts keys of documents that passed validation (clients that inline values instead of variables). */
  readonly #validShapes = new LruCache<KnownShape>(1000);

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: RequestLimits,
  ) {}

  prepare(request: GraphQLRequest): Prepared {
    const query = request.query;
    if (query === undefined || query.trim() === '') return rejected([wireError(messages.noQuery)]);
    const entry = this.#check(query);
    if (!entry.ok) return rejected(entry.errors);
    const operation = selectOperation(entry.checked.operations, request.operationName);
    if ('message' in operation) return rejected([operation]);
    if (request.method === 'GET' && operation.operation !== 'query') {
      return { ok: false, kind: 'method-not-allowed', errors: [wireError(messages.mutationOverGet)] };
    }
    const variables = this.#coerceVariables(entry.checked.document, operation, request.variables);
    if (!variables.ok) return rejected(variables.errors);
    return { ok: true, prepared: { checked: entry.checked, operation, variables: variables.values } };
  }

  #check(query: string): CacheEntry {
    const cached = this.#documents.get(query);
    if (cached !== undefined) {
      cacheCounters.document.hits++;
      return cached;
    }
    cacheCounters.document.misses++;
    const shape = this.limits.validate === false ? undefined : literalShape(query);
    const knownShape = shape === undefined ? undefined : this.#validShapes.get(shape);
    if (shape !== undefined) cacheCounters.documentShape[knownShape !== undefined ? 'hits' : 'misses']++;
    const entry = this.#parseAndValidate(query, knownShape);
    this.#documents.set(query, entry);
    if (entry.ok && shape !== undefined) {
      if (knownShape === undefined) this.#validShapes.set(shape, { types: undefined });
      else knownShape.types ??= literalTypesOf(this.schema, entry.checked.document) ?? false;
    }
    return entry;
  }

  /** `knownShape`: a document differing only in literal values passed validation (see knownShapeRules). */
  #parseAndValidate(query: string, knownShape?: KnownShape): CacheEntry {
    // graphql-js parses and validates recursively: bracket nesting is bounded before parsing, and
    // whatever still exhausts the stack (thousands of chained fragments) gets the same answer.
    const tooNested: CacheEntry = { ok: false, errors: [wireError(messages.queryTooNested(maxDocumentNesting))] };
    if (maxNesting(query) > maxDocumentNesting) return tooNested;
    let document: DocumentNode;
    try {
      document = parse(blankEmptyArguments(replaceLoneSurrogateEscapes(query)), { noLocation: false, maxTokens: this.limits.maxQueryTokens });
    } catch (error) {
      if (error instanceof RangeError) return tooNested;
      return { ok: false, errors: [error instanceof GraphQLError ? syntaxWireError(error, query) : toWireError(error)] };
    }
    if (document.definitions.some((d) => d.kind !== Kind.OPERATION_DEFINITION && d.kind !== Kind.FRAGMENT_DEFINITION)) {
      const unexpected = typeSystemDefinitionError(query);
      if (unexpected !== undefined) return { ok: false, errors: [wireError(unexpected.message, unexpected.locations)] };
    }
    const operations: OperationDefinitionNode[] = [];
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const definition of document.definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
      else if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    }
    const limits = { maxQueryDepth: this.limits.maxQueryDepth, maxQuerySelections: this.limits.maxQuerySelections ?? defaultMaxQuerySelections };
    try {
      const outOfBounds = selectionBoundsError(operations, fragments, limits);
      // Many fragments: cycles and chain length found without recursion before graphql-js sees them.
      const many = document.definitions.length - operations.length > manyFragments;
      const cycles = outOfBounds !== undefined || many ? findFragmentCycles(document, fragments) : undefined;
      if (cycles !== undefined && cycles.longestPath > maxDocumentNesting) return tooNested;
      // A fragment cycle also looks unbounded: Dgraph names the cycle.
      if (cycles !== undefined && cycles.errors.length > 0 && this.limits.validate !== false) return { ok: false, errors: cycles.errors.map(toWireError) };
      if (outOfBounds !== undefined) return { ok: false, errors: [outOfBounds] };
      // A literal that fails its rules takes the full validation, so every error is worded and ordered as before.
      const types = knownShape?.types;
      const literalErrors = knownShape === undefined ? undefined : types === undefined || types === false ? this.#validate(document, knownShapeRules) : literalsFit(document, types) ? [] : undefined;
      const errors = literalErrors?.length === 0 ? literalErrors : this.#validate(document, cycles === undefined ? allRules : rulesButCycles);
      if (errors.length > 0) return { ok: false, errors: inDgraphOrder(errors).map(toWireError) };
    } catch (error) {
      if (error instanceof RangeError) return tooNested;
      throw error;
    }
    return { ok: true, checked: { document, operations, fragments } };
  }

  #validate(document: DocumentNode, rules: readonly ValidationRule[]): readonly GraphQLError[] {
    return this.limits.validate === false ? [] : validateDocument(this.schema, document, rules, 50);
  }

  #coerceVariables(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    raw: unknown,
  ): { ok: true; values: Record<string, unknown> } | { ok: false; errors: WireError[] } {
    if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
      return { ok: false, errors: [wireError(messages.variablesNotObject)] };
    }
    const definitions = operation.variableDefinitions ?? [];
    if (definitions.length === 0) return { ok: true, values: {} };
    let inputs = (raw ?? {}) as Record<string, unknown>;
    // Valid input takes the compiled coercion; anything it refuses goes through graphql-js for the errors.
    let coerced = hasFloatText(inputs) ? undefined : coerceVariablesFast(this.schema, operation, inputs);
    if (coerced === undefined) {
      if (hasFloatText(inputs)) inputs = unwrapFloatText(this.schema, definitions, inputs);
      const result = getVariableValues(this.schema, definitions, inputs, { maxErrors: 50 });
      if (result.errors !== undefined) return { ok: false, errors: result.errors.map((e) => variableError(e, inputs) ?? toWireError(e)) };
      coerced = result.coerced;
    }
    const errors = checkVariableValues(this.schema, document, coerced);
    if (errors.length > 0) return { ok: false, errors: errors.map(toWireError) };
    return { ok: true, values: coerced };
  }
}

function rejected(errors: readonly WireError[]): Prepared {
  return { ok: false, kind: 'request-error', errors };
}

function selectOperation(
  operations: readonly OperationDefinitionNode[],
  operationName: string | null | undefined,
): OperationDefinitionNode | WireError {
  if (operationName !== undefined && operationName !== null && operationName !== '') {
    const named = operations.find((op) => op.name?.value === operationName);
    return named ?? wireError(messages.operationNotFound(operationName));
  }
  const [first] = operations;
  if (first === undefined || operations.length > 1) return wireError(messages.operationNameRequired);
  return first;
}

/** A parse error in Dgraph's parser's words and place. */
function syntaxWireError(error: GraphQLError, query: string): WireError {
  const { message, locations } = typeSystemDefinitionError(query, error.positions?.[0]) ?? toGqlparserSyntax(error, query);
  return wireError(message, locations);
}

export function toWireError(error: unknown): WireError {
  if (error instanceof GraphQLError) {
    const message = toDgraphMessage(error.message);
    return wireError(message, toDgraphLocations(message, error.locations), error.path);
  }
  return wireError(error instanceof Error ? error.message : String(error));
}
