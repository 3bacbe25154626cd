// GraphiQL for browsers: the page (served at /graphql and / by the router to a GET whose Accept prefers
// text/html and that has no `query`) and its scripts and styles, the UMD builds of graphiql, React 18 and
// the explorer plugin read from node_modules — no CDN. Open without a key, like any static page: the
// requests the page makes need the key as any other client's do.
// Files are versioned in their URL (`graphiql/<package>@<version>/<file>`), so they are cached as
// immutable; the page itself is revalidated (ETag). Each file is read and gzipped once, on first request.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import type { Reply } from '../http-types.js';
import { refusals } from '../responses.js';
import { pageHtml, startScript, type PageAssets } from './graphiql-page.js';
import { answering, type Route } from './route.js';

const gzipAsync = promisify(gzip);
const javascript = 'text/javascript; charset=utf-8';
const css = 'text/css; charset=utf-8';
const sourceMap = 'application/json';

interface Asset {
  /** Absolute URL path, e.g. `/graphiql/react@18.3.1/react.production.min.js`. */
  readonly path: string;
  readonly file: string;
  readonly contentType: string;
}

const requireHere = createRequire(import.meta.url);

function asset(pkg: string, file: string, contentType: string): Asset {
  const manifest = requireHere.resolve(`${pkg}/package.json`);
  const { version } = requireHere(manifest) as { version: string };
  return { path: `/graphiql/${pkg}@${version}/${basename(file)}`, file: join(dirname(manifest), file), contentType };
}

const pageAssets = {
  react: asset('react', 'umd/react.production.min.js', javascript),
  reactDom: asset('react-dom', 'umd/react-dom.production.min.js', javascript),
  graphiql: asset('graphiql', 'graphiql.min.js', javascript),
  graphiqlCss: asset('graphiql', 'graphiql.min.css', css),
  explorer: asset('@graphiql/plugin-explorer', 'dist/index.umd.js', javascript),
  explorerCss: asset('@graphiql/plugin-explorer', 'dist/style.css', css),
} satisfies Record<keyof PageAssets, Asset>;

/** graphiql's files name their source maps; browser dev tools fetch them. */
const assets: readonly Asset[] = [...Object.values(pageAssets), asset('graphiql', 'graphiql.min.js.map', sourceMap), asset('graphiql', 'graphiql.min.css.map', sourceMap)];

interface StaticFile {
  readonly body: Uint8Array;
  readonly gzipped: Uint8Array;
  readonly etag: string;
}

function etagOf(body: Uint8Array): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

const immutable = 'public, max-age=31536000, immutable';

/** Relative to the page (at /graphql or /), so a proxy's path prefix carries over. */
const relativeUrls = Object.fromEntries(Object.entries(pageAssets).map(([key, { path }]) => [key, `.${path}`])) as unknown as PageAssets;
const html = Buffer.from(pageHtml(relativeUrls));
let page: StaticFile | undefined;

/**
 * Scripts only from this origin plus the page's own inline one (by hash); styles and fonts inline or
 * data: URLs (graphiql's CSS embeds its fonts); requests only to this origin (WebSockets included); never framed.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'sha256-${createHash('sha256').update(startScript).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const pageHeaders = {
  'Cache-Control': 'no-cache',
  // /graphql answers JSON to other clients: a cache must keep them apart.
  Vary: 'Accept, Accept-Encoding',
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
};

export const graphiqlPageRoute: Route = {
  scope: undefined,
  handle: answering((exchange): Reply => {
    page ??= { body: html, gzipped: gzipSync(html), etag: etagOf(html) };
    return fileReply(page, 'text/html; charset=utf-8', pageHeaders, exchange.header('if-none-match'));
  }),
};

const loaded = new Map<string, Promise<StaticFile>>();

function load(asset: Asset): Promise<StaticFile> {
  let file = loaded.get(asset.path);
  if (file === undefined) {
    file = readFile(asset.file).then(async (body) => ({ body, gzipped: await gzipAsync(body), etag: etagOf(body) }));
    loaded.set(asset.path, file);
    file.catch(() => loaded.delete(asset.path)); // a later request tries again
  }
  return file;
}

function assetRoute(asset: Asset): Route {
  const headers = { 'Cache-Control': immutable, 'X-Content-Type-Options': 'nosniff' };
  return {
    scope: undefined,
    handle: answering(async (exchange) => {
      if (exchange.request.method !== 'GET') throw refusals.invalidMethod();
      return fileReply(await load(asset), asset.contentType, headers, exchange.header('if-none-match'));
    }),
  };
}

/** The router's entries for the page's files. */
export const graphiqlAssetRoutes: ReadonlyMap<string, Route> = new Map(assets.map((a) => [a.path, assetRoute(a)]));

function fileReply(file: StaticFile, contentType: string, headers: Readonly<Record<string, string>>, ifNoneMatch: string | undefined): Reply {
  const withTag = { ...headers, ETag: file.etag };
  if (ifNoneMatch !== undefined && matches(ifNoneMatch, file.etag)) return { status: 304, body: '', headers: withTag };
  return { status: 200, contentType, body: file.body, gzippedBody: file.gzipped, headers: withTag };
}

/** If-None-Match: `*` or a list of tags, compared weakly (RFC 9110 13.1.2). */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
