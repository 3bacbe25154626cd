// Outbound bodies written straight to JSON text from a parsed body template: the same bytes as
// goJson(renderBody(template, vars)) without building an object per parent and sorting its keys
// (a BATCH body over 1,000 parents is written in one pass). Keys are sorted once, here.

import { goJsonText } from './go-json.js';
import type { BodyTemplate } from './template.js';

/** Unescaped JSON text for `vars` (pass it through goEscape once the whole body is written); undefined = absent. */
export type BodyWriter = (vars: Readonly<Record<string, unknown>>) => string | undefined;

/** undefined when the template has a shape only the generic path reproduces (a `__proto__` key). */
export function compileBodyWriter(template: BodyTemplate): BodyWriter | undefined {
  switch (template.kind) {
    case 'var': {
      const name = template.name;
      return (vars) => {
        const value = vars[name];
        return value === undefined ? undefined : goJsonText(value);
      };
    }
    case 'const': {
      const text = goJsonText(template.value);
      return () => text;
    }
    case 'list': {
      const items: BodyWriter[] = [];
      for (const item of template.items) {
        const writer = compileBodyWriter(item);
        if (writer === undefined) return undefined;
        items.push(writer);
      }
      return (vars) => {
        let out = '[';
        for (let i = 0; i < items.length; i++) out += `${i === 0 ? '' : ','}${(items[i] as BodyWriter)(vars) ?? 'null'}`;
        return `${out}]`;
      };
    }
    case 'object': {
      // renderBody keeps the last defined value of a repeated key: try its writers from the last one.
      const byKey = new Map<string, BodyWriter[]>();
      for (const [key, value] of template.fields) {
        if (key === '__proto__') return undefined;
        const writer = compileBodyWriter(value);
        if (writer === undefined) return undefined;
        const list = byKey.get(key);
        if (list === undefined) byKey.set(key, [writer]);
        else list.unshift(writer);
      }
      const members = [...byKey.keys()].sort().map((key) => [`${JSON.stringify(key)}:`, byKey.get(key) as BodyWriter[]] as const);
      return (vars) => {
        let out = '{';
        for (const [prefix, writers] of members) {
          let text: string | undefined;
          for (let i = 0; i < writers.length && text === undefined; i++) text = (writers[i] as BodyWriter)(vars);
          if (text !== undefined) out += `${out.length === 1 ? '' : ','}${prefix}${text}`;
        }
        return `${out}}`;
      };
    }
  }
}

/** The writer for a body that is just the parent values themselves (no template): keys sorted, absent left out. */
export function valuesWriter(names: readonly string[]): BodyWriter {
  return compileBodyWriter({ kind: 'object', fields: names.map((name) => [name, { kind: 'var', name }] as const) }) as BodyWriter;
}

/** `{"k1":raw1,...}` with keys sorted: an envelope around pieces that are already JSON text. */
export function jsonObjectText(members: readonly (readonly [string, string])[]): string {
  const sorted = [...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${sorted.map(([key, raw]) => `${JSON.stringify(key)}:${raw}`).join(',')}}`;
}
