// The built-in extras as definitions, so generation can read them (Point is an object type,
// StringHashFilter's fields are copied into enum filters, ...).
import { parse } from 'graphql';
import { EXTENDED_DEFINITIONS } from './extended-definitions.js';
import { convertDocument } from './from-document.js';
import type { Definition } from './sdl-ast.js';

let cachedNames: ReadonlySet<string> | undefined;

/** Fresh (mutable) copies of the built-in definitions. */
export function builtInDefinitions(): Definition[] {
  const defs = convertDocument(parse(EXTENDED_DEFINITIONS, { noLocation: true })).definitions;
  for (const d of defs) d.builtIn = true;
  return defs;
}

export function builtInTypeNames(): ReadonlySet<string> {
  cachedNames ??= new Set(convertDocument(parse(EXTENDED_DEFINITIONS, { noLocation: true })).definitions.map((d) => d.name));
  return cachedNames;
}
