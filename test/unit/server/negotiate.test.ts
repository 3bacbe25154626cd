// negotiate.ts: which Accept headers are a browser asking for a page (GraphiQL) rather than a GraphQL answer.

import { describe, expect, it } from 'vitest';
import { prefersHtml, responseMode } from '../../../server/negotiate.js';

describe('prefersHtml', () => {
  it('is true for browsers navigating (Chrome, Firefox, Safari)', () => {
    for (const accept of [
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'TEXT/HTML',
    ])
      expect(prefersHtml(accept), accept).toBe(true);
  });

  it('is false for every API client and for ties, so their answers do not change', () => {
    for (const accept of [undefined, '', '*/*', 'application/json', 'application/graphql-response+json', 'application/json, text/html', 'text/html, */*', 'text/html;q=0.5, application/json', 'text/*', 'text/html;q=0', 'application/*, text/html;q=0.9'])
      expect(prefersHtml(accept), String(accept)).toBe(false);
  });

  it('leaves the response mode of an API client as it was', () => {
    expect(responseMode('application/graphql-response+json, text/html;q=0.5')).toBe('graphql-response');
    expect(responseMode('*/*')).toBe('json');
  });
});
