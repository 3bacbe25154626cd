// GraphiQL over HTTP (the browser test is test/browser/graphiql.test.ts): which requests get the page,
// that every other client keeps its JSON answer, the files' types and caching, and that the page is
// served without a key while the requests it makes need one.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { header, postGraphql, send } from './helpers/http.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

/** What Chrome sends when navigating. */
const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const page = { accept: browserAccept };

/** The page's script and style URLs, resolved against `base`. */
function assetUrls(html: string, base: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\.\/[^"]+)"/g)].map((m) => new URL(m[1] ?? '', base).href);
}

describe('without keys', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('a browser navigating to /graphql or / gets the page, revalidated by ETag and kept apart from JSON answers by Vary', async () => {
    for (const path of ['/graphql', '/']) {
      const answer = await send(`${server.url}${path}`, { headers: page });
      expect(answer.status).toBe(200);
      expect(header(answer, 'content-type')).toBe('text/html; charset=utf-8');
      expect(header(answer, 'cache-control')).toBe('no-cache');
      expect(header(answer, 'vary')).toBe('Accept, Accept-Encoding');
      expect(header(answer, 'content-security-policy')).toContain("connect-src 'self'");
      expect(answer.text).toContain('GraphiQL.createFetcher');
      const etag = header(answer, 'etag') ?? '';
      const again = await send(`${server.url}${path}`, { headers: { ...page, 'if-none-match': etag } });
      expect([again.status, again.text]).toEqual([304, '']);
    }
  });

  it('every other client keeps its JSON answer at /graphql, and / stays 404 for them', async () => {
    const json = await send(`${server.url}/graphql`, { headers: { accept: 'application/json' } });
    expect(header(json, 'content-type')).toBe('application/json');
    const modern = await send(`${server.url}/graphql`, { headers: { accept: 'application/graphql-response+json' } });
    expect(header(modern, 'content-type')).toBe('application/graphql-response+json; charset=utf-8');
    const cases: [Record<string, string>, typeof json][] = [
      [{}, json],
      [{ accept: '*/*' }, json],
      [{ accept: 'application/json, text/html' }, json], // a tie is not a browser
      [{ accept: 'text/html;q=0.5, application/json' }, json],
      [{ accept: 'text/*' }, json],
      [{ accept: 'application/graphql-response+json, application/json;q=0.9' }, modern],
    ];
    for (const [headers, expected] of cases) {
      const answer = await send(`${server.url}/graphql`, { headers });
      expect([answer.status, header(answer, 'content-type'), answer.text], JSON.stringify(headers)).toEqual([expected.status, header(expected, 'content-type'), expected.text]);
    }
    // A browser with a query in the URL (a link to an answer) gets the answer.
    const linked = await send(`${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: page });
    expect(header(linked, 'content-type')).toBe('application/json');
    expect(linked.json()).toMatchObject({ data: { __typename: 'Query' } });
    // POST is never the page, whatever the Accept.
    const posted = await postGraphql(server.url, { query: '{ __typename }' }, page);
    expect(posted.json()).toMatchObject({ data: { __typename: 'Query' } });
    for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }]) expect((await send(`${server.url}/`, { headers })).status).toBe(404);
  });

  it('serves the UMD files with their content types, cached as immutable by version, gzipped when asked', async () => {
    const html = (await send(`${server.url}/graphql`, { headers: page })).text;
    const urls = assetUrls(html, `${server.url}/graphql`);
    expect(urls.map((u) => new URL(u).pathname)).toEqual([
      '/graphiql/graphiql@3.8.3/graphiql.min.css',
      '/graphiql/@graphiql/plugin-explorer@3.2.5/style.css',
      '/graphiql/react@18.3.1/react.production.min.js',
      '/graphiql/react-dom@18.3.1/react-dom.production.min.js',
      '/graphiql/graphiql@3.8.3/graphiql.min.js',
      '/graphiql/@graphiql/plugin-explorer@3.2.5/index.umd.js',
    ]);
    for (const url of urls) {
      const plain = await send(url);
      expect(plain.status).toBe(200);
      expect(header(plain, 'content-type')).toBe(url.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8');
      expect(header(plain, 'cache-control')).toBe('public, max-age=31536000, immutable');
      const zipped = await send(url, { headers: { 'accept-encoding': 'gzip' } });
      expect(header(zipped, 'content-encoding')).toBe('gzip');
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
      expect((await send(url, { headers: { 'if-none-match': header(plain, 'etag') ?? '' } })).status).toBe(304);
    }
    expect((await send(`${server.url}/graphiql/graphiql@3.8.3/graphiql.min.js.map`)).status).toBe(200);
    expect((await send(`${server.url}/graphiql/graphiql@0.0.1/graphiql.min.js`)).status).toBe(404);
  });
});

describe('with keys or ACL on', () => {
  it('the page and its files are served without a key; the requests the page makes need one', async () => {
    const server = await startServer({ args: ['--admin-key', 'admin-secret', '--client-key', 'client-secret'] });
    try {
      for (const path of ['/graphql', '/']) expect((await send(`${server.url}${path}`, { headers: page })).status).toBe(200);
      const html = (await send(`${server.url}/graphql`, { headers: page })).text;
      for (const url of assetUrls(html, `${server.url}/graphql`)) expect((await send(url)).status).toBe(200);
      expect((await postGraphql(server.url, { query: '{ __typename }' }, page)).status).toBe(401);
      expect((await send(`${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: page })).status).toBe(401);
      const keyed = await postGraphql(server.url, { query: '{ __typename }' }, { 'x-auth-token': 'client-secret' });
      expect(keyed.json()).toMatchObject({ data: { __typename: 'Query' } });
    } finally {
      await server.stop();
    }
  });

  it('with ACL on, the page is served without an access token', async () => {
    const dir = makeTempDir('graphiql-acl-');
    const secretFile = join(dir, 'secret');
    writeFileSync(secretFile, 'an-acl-secret-of-at-least-32-bytes!!');
    mkdirSync(join(dir, 'data'));
    const server = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', join(dir, 'data'), '--acl-secret-file', secretFile] });
    try {
      const answer = await send(`${server.url}/graphql`, { headers: page });
      expect([answer.status, header(answer, 'content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
