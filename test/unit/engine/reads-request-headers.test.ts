import { describe, expect, it } from 'vitest';
import { readsRequestHeaders } from '../../../engine/custom/request-headers.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';

function reads(sdl: string): boolean {
  const result = compileSchema(sdl, { lambdaUrl: 'http://127.0.0.1:1/lambda' });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return readsRequestHeaders(result.compiled);
}

const url = 'http://127.0.0.1:1/x';

describe('readsRequestHeaders', () => {
  it('is false without custom logic, and for @custom calls forwarding nothing', () => {
    expect(reads('type A { id: ID! name: String }')).toBe(false);
    expect(reads(`type A { id: ID! name: String ref: String @custom(http: { url: "${url}", method: GET }) }`)).toBe(false);
    expect(reads(`type A { id: ID! name: String } type Query { q: String @custom(http: { url: "${url}", method: GET }) }`)).toBe(false);
  });

  it('is true for forwarded headers on type, query and mutation fields', () => {
    expect(reads(`type A { id: ID! name: String ref: String @custom(http: { url: "${url}", method: GET, forwardHeaders: ["X-A"] }) }`)).toBe(true);
    expect(reads(`type A { id: ID! name: String } type Query { q: String @custom(http: { url: "${url}", method: GET, forwardHeaders: ["X-A"] }) }`)).toBe(true);
    expect(reads(`type A { id: ID! name: String } type Mutation { m: String @custom(http: { url: "${url}", method: POST, forwardHeaders: ["X-A:X-B"] }) }`)).toBe(true);
  });

  it('is true for @lambda fields and @lambdaOnMutate types (access token, Dgraph.Authorization header)', () => {
    expect(reads('type A { id: ID! name: String l: String @lambda }')).toBe(true);
    expect(reads('type A @lambdaOnMutate(add: true) { id: ID! name: String }')).toBe(true);
  });
});
