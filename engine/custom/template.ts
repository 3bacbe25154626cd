// Outbound request construction for @custom(http:) (REFERENCE §8.2): `$name` placeholders in the URL
// (whole path segments and whole query values) and in the JSON-like body template.

import { Kind, parseValue, type ValueNode } from 'graphql';

/** A parsed body template: `{ id: $id, director: { number: $num } }`. */
export type BodyTemplate =
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'object'; readonly fields: readonly (readonly [string, BodyTemplate])[] }
  | { readonly kind: 'list'; readonly items: readonly BodyTemplate[] }
  | { readonly kind: 'const'; readonly value: unknown };

/** Parses a body template (already validated at upload). */
export function parseBodyTemplate(text: string): BodyTemplate | undefined {
  if (text.trim() === '') return undefined;
  return fromNode(parseValue(text));
}

function fromNode(node: ValueNode): BodyTemplate {
  switch (node.kind) {
    case Kind.VARIABLE:
      return { kind: 'var', name: node.name.value };
    case Kind.OBJECT:
      return { kind: 'object', fields: node.fields.map((f) => [f.name.value, fromNode(f.value)] as const) };
    case Kind.LIST:
      return { kind: 'list', items: node.values.map(fromNode) };
    case Kind.INT:
    case Kind.FLOAT:
      return { kind: 'const', value: Number(node.value) };
    case Kind.STRING:
    case Kind.ENUM:
      return { kind: 'const', value: node.value };
    case Kind.BOOLEAN:
      return { kind: 'const', value: node.value };
    case Kind.NULL:
      return { kind: 'const', value: null };
  }
}

/** Variables a template reads. */
export function templateVariables(template: BodyTemplate | undefined, into = new Set<string>()): Set<string> {
  if (template === undefined) return into;
  if (template.kind === 'var') into.add(template.name);
  else if (template.kind === 'object') for (const [, value] of template.fields) templateVariables(value, into);
  else if (template.kind === 'list') for (const item of template.items) templateVariables(item, into);
  return into;
}

/** Fills a template; a key whose variable was not supplied is left out (null stays null). */
export function renderBody(template: BodyTemplate, vars: Readonly<Record<string, unknown>>): unknown {
  switch (template.kind) {
    case 'var':
      return vars[template.name];
    case 'const':
      return template.value;
    case 'list':
      return template.items.map((item) => renderBody(item, vars) ?? null);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of template.fields) {
        const filled = renderBody(value, vars);
        if (filled !== undefined) out[key] = filled;
      }
      return out;
    }
  }
}

/** Variables named in a URL template (`$x` path segments and query values). */
export function urlVariables(url: string): Set<string> {
  const names = new Set<string>();
  for (const match of url.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(match[1] as string);
  return names;
}

/**
 * Substitutes `$x` in the URL: path segments are path-escaped (lists comma-joined, objects `k1,v1,...`
 * with keys sorted); query parameters whose variable is absent are removed, null gives an empty value,
 * lists repeat the key, objects become `k[sub]=v`; the query string is re-encoded with keys sorted.
 */
export function substituteUrl(url: string, vars: Readonly<Record<string, unknown>>): string {
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  const base = queryAt < 0 ? withoutHash : withoutHash.slice(0, queryAt);
  const query = queryAt < 0 ? undefined : withoutHash.slice(queryAt + 1);
  const path = base.replace(/\/\$([A-Za-z_][A-Za-z0-9_]*)(?=\/|$)/g, (_, name: string) => `/${pathValue(vars[name])}`);
  if (query === undefined) return path;
  const params: [string, string][] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decodeQuery(eq < 0 ? part : part.slice(0, eq));
    const raw = eq < 0 ? '' : part.slice(eq + 1);
    const variable = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(raw);
    if (variable === null) {
      params.push([key, decodeQuery(raw)]);
      continue;
    }
    const name = variable[1] as string;
    if (!(name in vars) || vars[name] === undefined) continue;
    addQueryValue(params, key, vars[name]);
  }
  return params.length === 0 ? path : `${path}?${encodeSorted(params)}`;
}

function addQueryValue(params: [string, string][], key: string, value: unknown): void {
  if (value === null) params.push([key, '']);
  else if (Array.isArray(value)) for (const item of value) addQueryValue(params, key, item);
  else if (typeof value === 'object') {
    for (const sub of Object.keys(value).sort()) addQueryValue(params, `${key}[${sub}]`, (value as Record<string, unknown>)[sub]);
  } else params.push([key, scalarText(value)]);
}

function pathValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(pathValue).join(',');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.keys(record)
      .sort()
      .map((k) => `${pathEscape(k)},${pathValue(record[k])}`)
      .join(',');
  }
  return pathEscape(scalarText(value));
}

function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

const hex = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/** Go's url.PathEscape: keeps unreserved characters and `$&+:=@`. */
export function pathEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, hex)
    .replace(/%(24|26|2B|3A|3D|40)/g, (_, code: string) => String.fromCharCode(parseInt(code, 16)));
}

/** Go's url.QueryEscape: space becomes `+`. */
export function queryEscape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, hex).replace(/%20/g, '+');
}

function decodeQuery(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Go's url.Values.Encode: keys sorted (stable for repeated keys). */
function encodeSorted(params: readonly [string, string][]): string {
  return [...params]
    .map((p, i) => [p, i] as const)
    .sort(([a, i], [b, j]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j))
    .map(([[k, v]]) => `${queryEscape(k)}=${queryEscape(v)}`)
    .join('&');
}
