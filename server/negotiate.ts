// Content negotiation: the response media type from Accept (which decides the status codes a client
// gets: responses.ts), whether a browser is asking for a page, request media types, gzip acceptance.

export type ResponseMode = 'json' | 'graphql-response';

const graphqlResponseType = 'application/graphql-response+json';

const contentTypes: Readonly<Record<ResponseMode, string>> = {
  json: 'application/json',
  'graphql-response': `${graphqlResponseType}; charset=utf-8`,
};

interface MediaRange {
  readonly type: string;
  readonly q: number;
}

/**
 * Clients send the same few header values over and over; parsing them once per distinct value keeps
 * negotiation off the per-request bill. Bounded, since header values are client-controlled.
 */
function memoized<T>(parse: (header: string) => T): (header: string) => T {
  const cache = new Map<string, T>();
  return (header) => {
    let value = cache.get(header);
    if (value === undefined) {
      value = parse(header);
      if (cache.size < 256) cache.set(header, value);
    }
    return value;
  };
}

const modeOf = memoized(parseResponseMode);
const mediaTypeOf = memoized(parseMediaType);
const htmlOf = memoized(parsePrefersHtml);

/** Picks the response media type from an Accept header; graphql-response+json wins ties. */
export function responseMode(accept: string | undefined): ResponseMode {
  return accept === undefined ? 'json' : modeOf(accept);
}

function parseResponseMode(accept: string): ResponseMode {
  if (accept.trim() === '') return 'json';
  const ranges = parseAccept(accept);
  const modern = quality(ranges, graphqlResponseType);
  const legacy = Math.max(quality(ranges, 'application/json'), quality(ranges, 'application/*'), quality(ranges, '*/*'));
  return modern > 0 && modern >= legacy ? 'graphql-response' : 'json';
}

/**
 * Whether Accept ranks `text/html` above every type a GraphQL answer comes in (a browser's navigation):
 * a tie, any-type alone (curl's default) or no Accept stays JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  return accept !== undefined && htmlOf(accept);
}

function parsePrefersHtml(accept: string): boolean {
  const ranges = parseAccept(accept);
  const html = quality(ranges, 'text/html');
  return html > 0 && html > Math.max(quality(ranges, graphqlResponseType), quality(ranges, 'application/json'), quality(ranges, 'application/*'), quality(ranges, '*/*'));
}

export function contentTypeFor(mode: ResponseMode): string {
  return contentTypes[mode];
}

interface MediaType {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
}

/** `type/subtype` lower-cased and its parameters; undefined for a missing header. */
export function mediaType(header: string | undefined): MediaType | undefined {
  return header === undefined ? undefined : mediaTypeOf(header);
}

function parseMediaType(header: string): MediaType | undefined {
  if (header.trim() === '') return undefined;
  const [type = '', ...rest] = header.split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq > 0) params[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return { type: type.trim().toLowerCase(), params };
}

/** Whether an Accept-Encoding header allows gzip. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  const ranges = parseAccept(acceptEncoding);
  return quality(ranges, 'gzip') > 0;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(',').map((part) => {
    const [type = '', ...params] = part.split(';');
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q' && value !== undefined) {
        const parsed = Number(value.trim());
        q = Number.isFinite(parsed) ? parsed : 0;
      }
    }
    return { type: type.trim().toLowerCase(), q };
  });
}

function quality(ranges: readonly MediaRange[], type: string): number {
  let best = 0;
  for (const range of ranges) if (range.type === type) best = Math.max(best, range.q);
  return best;
}
