// A TypeScript re-implementation of Dgraph's custom-logic mock server (graphql/e2e/custom_logic/cmd),
// built from ../shared/dgraph-testdata/custom_logic_mock_endpoints.json and graphqlresponse.yaml, on
// 127.0.0.1 (port 0). Strict endpoints check the exact method, URL, body bytes and header set; on a
// mismatch they answer 200 with {"errors":[{"message":"<what>: <detail>"}]} as the Go mock does.
// Extra routes: `/yaml/*` (a per-test responder for the resolve/*.yaml cases) and `/fault/*`.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { parse as parseYaml } from 'yaml';

export const testdata = join(import.meta.dirname, '../../../../shared/dgraph-testdata');

interface StrictSpec {
  readonly method?: string;
  readonly urlSuffix?: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, readonly string[] | null>>;
}
interface Endpoint {
  readonly path: string;
  readonly strict?: StrictSpec;
  readonly status?: number;
  readonly response?: unknown;
  readonly response_by_query_param?: Readonly<Record<string, unknown>>;
  readonly on_mismatch_status?: number;
}
interface MockSpec {
  readonly default_movies_response: unknown;
  readonly rest_query_endpoints: readonly Endpoint[];
  readonly rest_mutation_endpoints: readonly Endpoint[];
  readonly rest_field_endpoints_single: readonly Endpoint[];
}
interface YamlEntry {
  readonly name: string;
  readonly schema: string;
  readonly request?: string;
  readonly variables?: string;
  readonly response?: string;
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export type Responder = (request: RecordedRequest) => { status?: number; body: string } | undefined;

export interface MockUpstream {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Handles `/yaml/*` requests (resolve/*.yaml cases). */
  responder: Responder | undefined;
  /** Sockets currently open to the mock. */
  openSockets(): number;
  /** Requests to /fault/hang still held open. */
  hanging(): number;
  close(): Promise<void>;
}

const spec = JSON.parse(readFileSync(join(testdata, 'custom_logic_mock_endpoints.json'), 'utf8')) as MockSpec;
const yamlEntries = parseYaml(readFileSync(join(testdata, 'e2e/custom_logic/cmd/graphqlresponse.yaml'), 'utf8')) as YamlEntry[];
const yamlByName = new Map(yamlEntries.map((e) => [e.name.toLowerCase(), e]));

function yamlSchema(name: string): GraphQLSchema {
  const entry = yamlByName.get(name.toLowerCase());
  if (entry === undefined) throw new Error(`no graphqlresponse.yaml entry ${name}`);
  return buildSchema(entry.schema.replace(/@remote/g, '').replace(/@custom\([^)]*\)\)?/g, ''));
}

/** Headers Go's server does not count, or that a Node client adds on its own. */
const ignoredHeaders = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

function checkStrict(strict: StrictSpec, req: RecordedRequest): string | undefined {
  if (strict.method !== undefined && req.method !== strict.method) return `Invalid HTTP method: ${req.method}`;
  if (strict.urlSuffix !== undefined && !req.url.endsWith(strict.urlSuffix)) return `Invalid URL: ${req.url}`;
  if (strict.body !== undefined && req.body !== strict.body) return `Unexpected value for request body: ${req.body}`;
  if (strict.headers !== undefined) {
    const present = Object.keys(req.headers).filter((h) => !ignoredHeaders.has(h));
    const expected = Object.keys(strict.headers).map((h) => h.toLowerCase());
    if (present.length !== expected.length) return `Wrong number of headers, got ${present.length}: ${present.sort().join(',')}`;
    for (const [name, values] of Object.entries(strict.headers)) {
      const got = req.headers[name.toLowerCase()];
      if (got === undefined) return `Required header not found: ${name}`;
      if (values !== null && !values.includes(String(got))) return `Unexpected value for ${name} header: ${String(got)}`;
    }
  }
  return undefined;
}

const json = (body: unknown, status = 200): { status: number; body: string } => ({ status, body: JSON.stringify(body) });
const mismatch = (what: string): { status: number; body: string } => json({ errors: [{ message: what }] });

function resolveResponse(response: unknown): unknown {
  return response === 'default_movies_response' ? spec.default_movies_response : response;
}

function restEndpoint(endpoint: Endpoint, req: RecordedRequest): { status: number; body: string } {
  if (endpoint.strict !== undefined) {
    const wrong = checkStrict(endpoint.strict, req);
    if (wrong !== undefined) return endpoint.on_mismatch_status === undefined ? mismatch(wrong) : json({ errors: [{ message: wrong }] }, endpoint.on_mismatch_status);
  }
  if (endpoint.response_by_query_param !== undefined) {
    const query = req.url.split('?')[1] ?? '';
    return json(endpoint.response_by_query_param[query] ?? null);
  }
  return json(resolveResponse(endpoint.response), endpoint.status ?? 200);
}

/** Headers of a field endpoint, Accept-Encoding/Content-Length/User-Agent dropped. */
function headerSet(req: RecordedRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (!ignoredHeaders.has(k) && k !== 'accept-encoding' && k !== 'user-agent') out[k] = String(v);
  return out;
}

type Handler = (req: RecordedRequest) => { status: number; body: string } | Promise<{ status: number; body: string }>;

function bodyJson(req: RecordedRequest): unknown {
  try {
    return JSON.parse(req.body);
  } catch {
    return undefined;
  }
}

/** The REST field endpoints (BATCH: arrays in and out; SINGLE: one object). */
function fieldHandlers(): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  const batch = (path: string, key: string, make: (id: unknown) => unknown): void => {
    handlers.set(path, (req) => {
      const input = bodyJson(req);
      if (!Array.isArray(input)) return mismatch('expected a JSON array');
      return json(input.map((item: Record<string, unknown>) => make(item[key])));
    });
  };
  batch('/userNames', 'uid', (id) => `uname-${String(id)}`);
  batch('/cars', 'uid', (id) => ({ name: `car-${String(id)}` }));
  batch('/classes', 'sid', (id) => [{ name: `class-${String(id)}` }]);
  batch('/teacherNames', 'tid', (id) => `tname-${String(id)}`);
  batch('/schoolNames', 'sid', (id) => `sname-${String(id)}`);
  handlers.set('/checkHeadersForCars', (req) => {
    const h = headerSet(req);
    const ok = Object.keys(h).length === 2 && h['stripe-api-key'] === 'some-api-key' && h['content-type'] === 'application/json';
    return ok ? json([{ name: 'foo' }, { name: 'foo' }, { name: 'foo' }]) : mismatch(`unexpected headers: ${Object.keys(h).sort().join(',')}`);
  });
  const single = (path: string, key: string, make: (id: unknown) => unknown): void => {
    handlers.set(path, (req) => {
      const input = bodyJson(req) as Record<string, unknown> | undefined;
      if (input === undefined || typeof input !== 'object') return mismatch('expected a JSON object');
      return json(make(input[key]));
    });
  };
  single('/userName', 'uid', (id) => `uname-${String(id)}`);
  single('/car', 'uid', (id) => ({ name: `car-${String(id)}` }));
  single('/class', 'sid', (id) => [{ name: `class-${String(id)}` }]);
  single('/teacherName', 'tid', (id) => `tname-${String(id)}`);
  single('/schoolName', 'sid', (id) => `sname-${String(id)}`);
  handlers.set('/userNameError', () => json({ errors: [{ message: 'Rest API returns Error for field name' }] }, 400));
  handlers.set('/userNameWithoutAddress', (req) => (req.body === '{"uid":"0x5"}' ? json('uname-0x5') : mismatch(`Unexpected value for request body: ${req.body}`)));
  handlers.set('/checkHeadersForUserName', (req) => {
    const h = headerSet(req);
    const ok = Object.keys(h).length === 2 && h['github-api-token'] === 'some-api-token' && h['content-type'] === 'application/json';
    return ok ? json('foo') : mismatch(`unexpected headers: ${Object.keys(h).sort().join(',')}`);
  });
  return handlers;
}

/** Executes a GraphQL request against a schema from graphqlresponse.yaml with the given root resolvers. */
async function executeGraphql(schema: GraphQLSchema, req: RecordedRequest, root: Record<string, unknown>): Promise<{ status: number; body: string }> {
  const body = bodyJson(req) as { query?: string; variables?: Record<string, unknown> } | undefined;
  const result = await graphql({ schema, source: body?.query ?? '', rootValue: root, variableValues: body?.variables ?? null });
  return json(result);
}

function isIntrospection(req: RecordedRequest): boolean {
  return req.body.includes('__schema');
}

function graphqlHandlers(): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  const introspect = (schema: GraphQLSchema, req: RecordedRequest) => executeGraphql(schema, req, {});
  // Canned introspection results.
  handlers.set('/noquery', () => json({ data: { __schema: { queryType: { name: 'Query' }, mutationType: null, types: [{ kind: 'OBJECT', name: 'Query', fields: [] }] } } }));
  handlers.set('/nullQueryAndMutationType', () => json({ data: { __schema: { queryType: null, mutationType: null, types: [] } } }));
  handlers.set('/missingQueryAndMutationType', () => json({ data: { __schema: { queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } } } }));
  handlers.set('/invalidInputForBatchedField', (req) => introspect(yamlSchema('invalidinputbatchedfield'), req));
  const missingType = buildSchema('type Post { id: ID! text: String } input PostFilterInput { id: ID! } type Query { getPosts(input: [PostFilterInput]): [String!] }');
  handlers.set('/missingTypeForBatchedFieldInput', async (req) => {
    const result = JSON.parse((await introspect(missingType, req)).body) as { data: { __schema: { types: { name: string }[] } } };
    result.data.__schema.types = result.data.__schema.types.filter((t) => t.name !== 'PostFilterInput');
    return json(result);
  });
  handlers.set('/getPosts', (req) => introspect(yamlSchema('getPosts'), req));
  // commonGraphqlHandler: introspection, or the canned response for the exact request.
  for (const name of ['invalidargument', 'invalidtype', 'argsonfields', 'validcountrywitherror', 'graphqlerr', 'invalidfield', 'nestedinvalid', 'setCountry', 'updateCountries']) {
    handlers.set(`/${name}`, (req) => {
      const entry = yamlByName.get(name.toLowerCase());
      if (entry === undefined) return json({});
      if (isIntrospection(req)) return introspect(yamlSchema(name), req);
      const body = bodyJson(req) as { query?: string; variables?: unknown } | undefined;
      if (body?.query === entry.request?.trim() && JSON.stringify(body?.variables) === entry.variables?.trim()) return { status: 200, body: entry.response ?? '' };
      return { status: 200, body: '' };
    });
  }
  // Real servers over the yaml schemas.
  const country = { country: ({ code }: { code: string }) => ({ code, name: 'Burundi' }) };
  handlers.set('/validcountry', (req) => executeGraphql(yamlSchema('validcountry'), req, country));
  handlers.set('/validcountries', (req) =>
    executeGraphql(yamlSchema('validcountries'), req, { validCountries: ({ code }: { code: string }) => [{ code, name: 'Burundi' }] }),
  );
  const countries = { countries: ({ filter }: { filter: { code: string; name: string } }) => [{ code: filter.code, name: filter.name }] };
  handlers.set('/validinputfield', (req) => executeGraphql(yamlSchema('validinputfield'), req, countries));
  handlers.set('/validatesecrettoken', (req) =>
    req.headers['github-api-token'] === 'random-api-token' ? executeGraphql(yamlSchema('validinputfield'), req, countries) : { status: 200, body: '' },
  );
  const single = yamlSchema('singleOperationSchema');
  const singleRoot = {
    userName: ({ id }: { id: string }) => `uname-${id}`,
    teacherName: ({ id }: { id: string }) => `tname-${id}`,
    schoolName: ({ id }: { id: string }) => `sname-${id}`,
    car: ({ id }: { id: string }) => ({ id, name: `car-${id}` }),
    class: ({ id }: { id: string }) => [{ id, name: `class-${id}` }],
  };
  for (const path of ['/gqlUserName', '/gqlCar', '/gqlClass', '/gqlTeacherName', '/gqlSchoolName']) handlers.set(path, (req) => executeGraphql(single, req, singleRoot));
  handlers.set('/gqlUserNameWithError', (req) => {
    if (isIntrospection(req)) return introspect(buildSchema('type Query { userName(id: ID!): String }'), req);
    const id = (bodyJson(req) as { variables?: { id?: unknown } } | undefined)?.variables?.id;
    return json({ data: { userName: `uname-${String(id)}` }, errors: [{ message: 'error-1 from username' }, { message: 'error-2 from username' }] });
  });
  // Batch servers: the one variable holds a list of objects (read leniently, as graphql-go does).
  const batchSchema = yamlSchema('batchOperationSchema');
  const batch = (field: string, make: (item: Record<string, unknown>) => unknown): Handler => (req) => {
    if (isIntrospection(req)) return introspect(batchSchema, req);
    const variables = (bodyJson(req) as { variables?: Record<string, unknown> } | undefined)?.variables ?? {};
    const list = Object.values(variables)[0];
    if (!Array.isArray(list)) return json({ errors: [{ message: 'expected a list variable' }] });
    return json({ data: { [field]: list.map((item: Record<string, unknown>) => make(item)) } });
  };
  handlers.set('/gqlUserNames', batch('userNames', (u) => `uname-${String(u['id'])}`));
  handlers.set('/gqlCars', batch('cars', (u) => ({ id: u['id'], name: `car-${String(u['id'])}` })));
  handlers.set('/gqlClasses', batch('classes', (s) => [{ id: s['id'], name: `class-${String(s['id'])}` }]));
  handlers.set('/gqlTeacherNames', batch('teacherNames', (t) => `tname-${String(t['tid'] ?? t['id'])}`));
  handlers.set('/gqlSchoolNames', batch('schoolNames', (s) => `sname-${String(s['id'])}`));
  handlers.set('/gqlCarsWithErrors', (req) => {
    if (isIntrospection(req)) return introspect(yamlSchema('carsschema'), req);
    const input = (bodyJson(req) as { variables?: { input?: Record<string, unknown>[] } } | undefined)?.variables?.input ?? [];
    return json({ data: { cars: input.map((u) => ({ name: `car-${String(u['id'])}` })) }, errors: [{ message: 'error-1 from cars' }, { message: 'error-2 from cars' }] });
  });
  return handlers;
}

/** Fault endpoints: a hang, an HTML 500, malformed JSON, a 100 MB body, a redirect, a slow answer. */
function faultRoute(path: string, req: IncomingMessage, res: ServerResponse, hangs: Set<ServerResponse>): boolean {
  switch (path) {
    case '/fault/hang':
      hangs.add(res);
      res.on('close', () => hangs.delete(res));
      return true;
    case '/fault/html500':
      res.writeHead(500, { 'content-type': 'text/html' }).end('<html><body><h1>500 Internal Server Error</h1><p>secret stack trace</p></body></html>');
      return true;
    case '/fault/malformed':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"name": "trunc');
      return true;
    case '/fault/huge': {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const pump = (): void => {
        while (sent < 100 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      res.write('"');
      pump();
      return true;
    }
    case '/fault/redirect-private':
      // To this mock itself on 127.0.0.1 (a private address), so a followed redirect would show in `requests`.
      res.writeHead(302, { location: `http://${req.headers.host ?? ''}/internal` }).end();
      return true;
    default:
      return false;
  }
}

export async function startMockUpstream(): Promise<MockUpstream> {
  const rest = new Map<string, Endpoint>();
  for (const e of [...spec.rest_query_endpoints, ...spec.rest_mutation_endpoints, ...spec.rest_field_endpoints_single]) if (e.strict || e.response) rest.set(e.path, e);
  const fields = fieldHandlers();
  const graphqlRoutes = graphqlHandlers();
  const requests: RecordedRequest[] = [];
  const hangs = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const mock: MockUpstream = {
    url: '',
    requests,
    responder: undefined,
    openSockets: () => sockets.size,
    hanging: () => hangs.size,
    close: async () => {
      for (const res of hangs) res.destroy();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, body: string): Promise<void> => {
    const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
    requests.push(recorded);
    const path = recorded.url.split('?')[0] ?? '';
    if (faultRoute(path, req, res, hangs)) return;
    let answer: { status?: number; body: string } | undefined;
    if (path.startsWith('/yaml/')) answer = mock.responder?.(recorded);
    else if (fields.has(path)) answer = await (fields.get(path) as Handler)(recorded);
    else if (graphqlRoutes.has(path)) answer = await (graphqlRoutes.get(path) as Handler)(recorded);
    else {
      const endpoint = rest.get(path) ?? [...rest.values()].find((e) => e.path.endsWith('/') && path.startsWith(e.path));
      if (endpoint !== undefined) answer = restEndpoint(endpoint, recorded);
    }
    if (answer === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
      return;
    }
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(answer.body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return Object.assign(mock, { url: `http://127.0.0.1:${port}` });
}

/** Points the fixed hosts of the test schemas (http://mock:8888, http://myapi.com, ...) at the mock. */
export function rewriteHosts(sdl: string, mockUrl: string): string {
  return sdl
    .replace(/http:\/\/mock:8888/g, mockUrl)
    .replace(/http:\/\/myapi\.com/g, `${mockUrl}/yaml`)
    .replace(/http:\/\/api-gateway\.com/g, `${mockUrl}/yaml`)
    .replace(/http:\/\/google\.com/g, mockUrl);
}
