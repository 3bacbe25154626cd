// The schema model for the lead's first integration schema: predicates, inverses on both sides,
// search defaults, possible types, inherited fields and root field classification.
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import type { SchemaModel } from '../../../engine/schema/model.js';

const SDL = `
type Product { productID: ID!  name: String @search(by: [term])  reviews: [Review] @hasInverse(field: about) }
type Customer { username: String! @id @search(by: [hash, regexp])  reviews: [Review] @hasInverse(field: by) }
type Review { id: ID!  about: Product!  by: Customer!  comment: String @search(by: [fulltext])  rating: Int @search  verified: Boolean @search }
interface Character { id: ID!  name: String! @search(by: [exact]) }
type Human implements Character { totalCredits: Int }
type Droid implements Character { primaryFunction: String }
`;

function model(sdl = SDL): SchemaModel {
  const r = compileSchema(sdl);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.compiled.model;
}

const field = (m: SchemaModel, t: string, f: string) => {
  const x = m.types.get(t)?.fields.get(f);
  if (!x) throw new Error(`${t}.${f} missing`);
  return x;
};

describe('schema model', () => {
  const m = model();

  it('names predicates after the declaring type', () => {
    expect(field(m, 'Product', 'name').predicate).toBe('Product.name');
    expect(field(m, 'Human', 'name').predicate).toBe('Character.name');
    expect(field(m, 'Human', 'name').declaringType).toBe('Character');
    expect(field(m, 'Human', 'totalCredits').predicate).toBe('Human.totalCredits');
  });

  it('uses @dgraph(pred:) and marks reverse edges', () => {
    const mm = model(`type Movie { id: ID! title: String directors: [Director] @dgraph(pred: "~directed") }
      type Director { id: ID! name: String directed: [Movie] @dgraph(pred: "directed") }`);
    expect(field(mm, 'Director', 'directed').predicate).toBe('directed');
    expect(field(mm, 'Movie', 'directors').reverseOf).toBe('directed');
  });

  it('puts @hasInverse on both sides', () => {
    expect(field(m, 'Product', 'reviews').inverse).toEqual({ type: 'Review', field: 'about' });
    expect(field(m, 'Review', 'about').inverse).toEqual({ type: 'Product', field: 'reviews' });
    expect(field(m, 'Customer', 'reviews').inverse).toEqual({ type: 'Review', field: 'by' });
    expect(field(m, 'Review', 'by').inverse).toEqual({ type: 'Customer', field: 'reviews' });
  });

  it('applies search defaults and filter input names', () => {
    expect(field(m, 'Review', 'rating').search).toEqual(['int']);
    expect(field(m, 'Review', 'rating').filterInput).toBe('IntFilter');
    expect(field(m, 'Review', 'verified').search).toEqual(['bool']);
    expect(field(m, 'Review', 'verified').filterInput).toBe('Boolean');
    expect(field(m, 'Customer', 'username').search).toEqual(['hash', 'trigram']);
    expect(field(m, 'Customer', 'username').filterInput).toBe('StringHashFilter_StringRegExpFilter');
    expect(field(m, 'Product', 'name').filterInput).toBe('StringTermFilter');
    expect(field(m, 'Review', 'comment').search).toEqual(['fulltext']);
    expect(field(m, 'Review', 'about').search).toEqual([]);
  });

  it('classifies field kinds, ids and xids', () => {
    expect(field(m, 'Product', 'productID').kind).toBe('id');
    expect(m.types.get('Product')?.idField).toBe('productID');
    expect(m.types.get('Customer')?.idField).toBeUndefined();
    expect(m.types.get('Customer')?.xidFields).toEqual(['username']);
    expect(field(m, 'Customer', 'username').isXid).toBe(true);
    expect(field(m, 'Review', 'about')).toMatchObject({ kind: 'object', typeName: 'Product', nonNull: true, isList: false });
    expect(field(m, 'Product', 'reviews')).toMatchObject({ kind: 'object', isList: true, nonNull: false });
  });

  it('lists inherited fields first and the possible types of interfaces', () => {
    expect([...(m.types.get('Human')?.fields.keys() ?? [])]).toEqual(['id', 'name', 'totalCredits']);
    expect(m.types.get('Character')).toMatchObject({ kind: 'interface', possibleTypes: ['Human', 'Droid'] });
    expect(m.types.get('Human')?.interfaces).toEqual(['Character']);
  });

  it('classifies every generated root field', () => {
    expect(m.queries.get('getProduct')).toEqual({ name: 'getProduct', kind: 'get', type: 'Product' });
    expect(m.queries.get('queryReview')?.kind).toBe('query');
    expect(m.queries.get('aggregateCharacter')).toMatchObject({ kind: 'aggregate', type: 'Character' });
    expect(m.mutations.get('addCustomer')).toMatchObject({ kind: 'add', type: 'Customer' });
    expect(m.mutations.get('updateCharacter')).toMatchObject({ kind: 'update', type: 'Character' });
    expect(m.mutations.has('addCharacter')).toBe(false);
    expect(m.mutations.get('deleteDroid')).toMatchObject({ kind: 'delete', type: 'Droid' });
    expect(m.subscriptions.size).toBe(0);
  });

  it('keeps secrets in the model only', () => {
    const r = compileSchema(`${SDL}\n# Service.Secret API_KEY "s3cr3t-value"\n# Dgraph.Secret OTHER "x y"`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.compiled.model.secrets.get('API_KEY')).toBe('s3cr3t-value');
    expect(r.compiled.model.secrets.get('OTHER')).toBe('x y');
    expect(r.compiled.generatedSchema).not.toContain('s3cr3t');
  });

  it('classifies custom root fields and subscriptions', () => {
    const mm = model(`type User { id: ID! name: String } type Tweet @withSubscription { id: ID! text: String }
      type Query { favs(id: ID!): [User] @custom(http: {url: "http://x.io/$id", method: GET}) }`);
    expect(mm.queries.get('favs')).toMatchObject({ kind: 'custom', custom: { lambda: false, http: { url: 'http://x.io/$id', method: 'GET', mode: 'SINGLE' } } });
    expect(mm.subscriptions.get('queryTweet')).toMatchObject({ kind: 'query', type: 'Tweet' });
  });

  it('builds an API schema that validates and introspects', async () => {
    const r = compileSchema(SDL);
    if (!r.ok) throw new Error('compile');
    const { graphql } = await import('graphql');
    const res = await graphql({ schema: r.compiled.apiSchema, source: '{ __type(name: "ReviewFilter") { inputFields { name } } }' });
    expect(res.errors).toBeUndefined();
    expect(JSON.stringify(res.data)).toContain('rating');
  });
});
