// The compiled variable coercion against graphql-js itself: for every value it accepts it must return
// exactly what graphql-js returns (keys, key order, prototypes), and it must accept every value
// graphql-js accepts. Values are generated per input type of a real Dgraph API schema, valid or
// damaged at random depths.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  type GraphQLLeafType,
  coerceInputValue,
  getNamedType,
  getVariableValues,
  type GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  parse,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import { installApiScalars } from '../../../engine/exec/api-scalars.js';
import { COERCION_FAILED, inputCoercer } from '../../../engine/request/compiled-coercion.js';
import { coerceVariablesFast } from '../../../engine/request/compiled-variables.js';
import { RequestPreparer, toWireError } from '../../../engine/request/prepare-request.js';
import { variableError } from '../../../engine/request/variable-errors.js';

function apiSchema(): GraphQLSchema {
  const sdl = readFileSync('../shared/dgraph-testdata/e2e/normal/schema.graphql', 'utf8');
  const r = compileSchema(sdl, { lambdaUrl: 'http://localhost:8686/graphql-worker' });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  installApiScalars(r.compiled.apiSchema);
  return r.compiled.apiSchema;
}

const schema = apiSchema();
const inputObjects = Object.values(schema.getTypeMap()).filter((t): t is GraphQLInputObjectType => isInputObjectType(t) && !t.name.startsWith('__'));
/** Every input object type, plain and wrapped as the generated API uses them (`[T!]!`, `T!`, `[T]`). */
const types: GraphQLInputType[] = inputObjects.flatMap((t) => [t, new GraphQLNonNull(t), new GraphQLList(t), new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(t)))]);

/** A small deterministic generator driven by fast-check's seed. */
class Gen {
  constructor(private state: number) {}
  next(): number {
    this.state = (Math.imul(this.state ^ (this.state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return ((this.state ^ (this.state >>> 13)) >>> 0) / 2 ** 32;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

const junk: readonly unknown[] = [null, undefined, 0, -1, 1.5, 2 ** 31, -(2 ** 31), 2 ** 53, NaN, Infinity, '', 'x', '12', '-3', 'true', true, false, [], [1], {}, { a: 1 }, 10n];

function scalarValue(name: string, g: Gen): unknown {
  switch (name) {
    case 'String':
      return g.pick(['', 'hello', 'ünï', '0x1']);
    case 'Int':
      return g.pick([0, 7, -42, 2147483647, -2147483648]);
    case 'Float':
      return g.pick([0, 1.25, -3, 1e10]);
    case 'Boolean':
      return g.chance(0.5);
    case 'ID':
      return g.pick(['0x1', '0x2a', 5]);
    case 'Int64':
      return g.pick([0, 123, '9223372036854775807', -5, 10n]);
    case 'DateTime':
      return g.pick(['2020-01-01T00:00:00Z', '2021-06-01']);
    default:
      return g.pick(['x', 1, true]);
  }
}

function valueFor(type: GraphQLInputType, g: Gen, depth: number, damage: number): unknown {
  if (g.chance(damage)) return g.pick(junk);
  if (isNonNullType(type)) return valueFor(type.ofType, g, depth, damage);
  if (g.chance(0.05)) return null;
  if (isListType(type)) {
    if (g.chance(0.2)) return valueFor(type.ofType, g, depth, damage); // a single value for a list
    const n = depth > 2 ? 0 : Math.floor(g.next() * 3);
    return Array.from({ length: n }, () => valueFor(type.ofType, g, depth + 1, damage));
  }
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      const required = isNonNullType(field.type);
      if (!(required ? !g.chance(damage) : g.chance(depth > 2 ? 0.05 : 0.4))) continue;
      out[field.name] = valueFor(field.type, g, depth + 1, damage);
    }
    if (g.chance(damage)) out['notAField'] = 1;
    return out;
  }
  if (isEnumType(type)) return g.chance(0.9) ? g.pick(type.getValues()).name : 'NOT_A_VALUE';
  return scalarValue(getNamedType(type).name, g);
}

/** Equal as graphql-js sees it, and also in key order and prototypes. */
function expectSameShape(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  if (typeof expected !== 'object' || expected === null) return;
  expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
  expect(Object.keys(actual as object)).toEqual(Object.keys(expected));
  for (const key of Object.keys(expected)) expectSameShape((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]);
}

const operations = new Map<GraphQLInputType, OperationDefinitionNode>();
function operationFor(type: GraphQLInputType): OperationDefinitionNode {
  let op = operations.get(type);
  if (op === undefined) {
    op = parse(`query ($v: ${String(type)}) { __typename }`).definitions[0] as OperationDefinitionNode;
    operations.set(type, op);
  }
  return op;
}

const cases = fc.record({ type: fc.constantFrom(...types), seed: fc.integer(), damage: fc.constantFrom(0, 0.02, 0.1, 0.3) });

describe('compiled input coercion', () => {
  it('found input types to test', () => {
    expect(inputObjects.length).toBeGreaterThan(50);
  });

  it('returns what coerceInputValue returns, and fails exactly when it reports an error', () => {
    fc.assert(
      fc.property(cases, ({ type, seed, damage }) => {
        const value = valueFor(type, new Gen(seed), 0, damage);
        const errors: string[] = [];
        const expected = coerceInputValue(value, type, (path, _v, error) => errors.push(`${path.join('.')}: ${error.message}`));
        const actual = inputCoercer(type)(value);
        if (errors.length > 0) expect(actual).toBe(COERCION_FAILED);
        else expectSameShape(actual, expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('coerces every scalar and enum of the schema as graphql-js does', () => {
    const leaves = Object.values(schema.getTypeMap()).filter((t): t is GraphQLLeafType => isLeafType(t) && !t.name.startsWith('__'));
    const leafValues = [...junk, 'TRUE', '2020-01-01T00:00:00Z', '9223372036854775808', -0, 2 ** 31 - 1, 1e21, ...leaves.flatMap((t) => (isEnumType(t) ? t.getValues().slice(0, 2).map((v) => v.name) : []))];
    let compared = 0;
    for (const leaf of leaves) {
      for (const type of [leaf, new GraphQLNonNull(leaf)]) {
        for (const value of leafValues) {
          let failed = false;
          const expected = coerceInputValue(value, type, () => (failed = true));
          const actual = inputCoercer(type)(value);
          if (failed) expect(actual, `${String(type)} ${String(value)}`).toBe(COERCION_FAILED);
          else expectSameShape(actual, expected);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('coerces variables as getVariableValues does', () => {
    fc.assert(
      fc.property(cases, fc.boolean(), ({ type, seed, damage }, given) => {
        const inputs = given ? { v: valueFor(type, new Gen(seed), 0, damage) } : {};
        const op = operationFor(type);
        const expected = getVariableValues(schema, op.variableDefinitions ?? [], inputs);
        const actual = coerceVariablesFast(schema, op, inputs);
        if (expected.errors !== undefined) expect(actual).toBeUndefined();
        else expectSameShape(actual, expected.coerced);
      }),
      { numRuns: 2000 },
    );
  });

  it('applies variable defaults as graphql-js does', () => {
    const op = parse('query ($n: Int = 3, $s: [String!] = ["a"], $f: PostFilter = { title: { anyofterms: "x" } }) { __typename }')
      .definitions[0] as OperationDefinitionNode;
    const expected = getVariableValues(schema, op.variableDefinitions ?? [], {});
    expect(expected.errors).toBeUndefined();
    expectSameShape(coerceVariablesFast(schema, op, {}), expected.coerced);
  });

  it('leaves iterables other than arrays to graphql-js', () => {
    const list = new GraphQLList(GraphQLNonNull_String());
    expect(inputCoercer(list)(new Set(['a']))).toBe(COERCION_FAILED);
    expect(inputCoercer(list)('a')).toEqual(['a']);
  });
});

function GraphQLNonNull_String(): GraphQLInputType {
  return new GraphQLNonNull(schema.getType('String') as GraphQLInputType);
}

describe('RequestPreparer variable errors', () => {
  const preparer = new RequestPreparer(schema, { maxQueryTokens: 100000, maxQueryDepth: 100 });
  const query = 'mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }';
  const op = parse(query).definitions[0] as OperationDefinitionNode;

  it('reports graphql-js errors (in Dgraph wording) for input the compiled form refuses', () => {
    const type = schema.getType('AddPostInput') as GraphQLInputType;
    const listType = new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type)));
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0.05, 0.3), (seed, damage) => {
        const variables = { input: valueFor(listType, new Gen(seed), 0, damage) };
        const prepared = preparer.prepare({ method: 'POST', headers: {}, query, variables });
        const direct = getVariableValues(schema, op.variableDefinitions ?? [], variables, { maxErrors: 50 });
        if (direct.errors === undefined) return; // valid input: other request checks may still apply
        expect(prepared.ok).toBe(false);
        if (prepared.ok) return;
        expect(prepared.errors).toEqual(direct.errors.map((e) => variableError(e, variables) ?? toWireError(e)));
      }),
      { numRuns: 500 },
    );
  });

  it('names a missing required field with its path, in gqlparser wording', () => {
    const prepared = preparer.prepare({ method: 'POST', headers: {}, query, variables: { input: [{ title: 'x', author: { name: 'n' } }, { author: { name: 'n' } }] } });
    expect(prepared).toMatchObject({ ok: false, errors: [{ message: 'must be defined', path: ['variable', 'input', 1, 'title'] }] });
  });
});
