// Small questions about definitions and fields that generation, validation and the model all ask.
import type { Definition, Directive, FieldDef } from './sdl-ast.js';
import { findArg, findDirective, typeName } from './sdl-ast.js';
import { DEFAULT_SEARCHES, SUPPORTED_SEARCHES } from './search-table.js';

export const isIDField = (f: FieldDef): boolean => typeName(f.type) === 'ID';
export const hasIDDirective = (f: FieldDef): boolean => findDirective(f.directives, 'id') !== undefined;
/** A federation key owned elsewhere (`id: ID! @external`): Dgraph stores it as a String with a hash index, an XID, not as the uid. */
export const isExternalID = (f: FieldDef): boolean => isIDField(f) && findDirective(f.directives, 'external') !== undefined;
export const hasID = (d: Definition): boolean => d.fields.some(isIDField);
export const hasXID = (d: Definition): boolean => d.fields.some(hasIDDirective);
export const isCustomOrLambda = (f: FieldDef): boolean =>
  findDirective(f.directives, 'custom') !== undefined || findDirective(f.directives, 'lambda') !== undefined;
export const isRemote = (d: Definition | undefined): boolean => d !== undefined && findDirective(d.directives, 'remote') !== undefined;
export const hasExtends = (d: Definition | undefined): boolean =>
  d !== undefined && (d.extension || findDirective(d.directives, 'extends') !== undefined);
export const isQueryOrMutation = (name: string): boolean => name === 'Query' || name === 'Mutation';

export function dgraphPredArg(f: FieldDef): string | undefined {
  const v = findArg(findDirective(f.directives, 'dgraph'), 'pred')?.value;
  return v ? v.raw : undefined;
}

/** Storage predicate of a field as Dgraph names it. */
export function predicateName(f: FieldDef, declaringType: string): string {
  return dgraphPredArg(f) ?? `${declaringType}.${f.name}`;
}

export function isReversePredicate(f: FieldDef): boolean {
  const p = dgraphPredArg(f);
  return p !== undefined && (p.startsWith('~') || p.startsWith('<~'));
}

/** `pred@hi:en` style fields are read-only; with `forInput`, `pred@.` too. */
export function isMultiLangField(f: FieldDef, forInput: boolean): boolean {
  const p = dgraphPredArg(f);
  if (p === undefined) return false;
  const at = p.indexOf('@');
  if (at < 0) return false;
  const tags = p.slice(at + 1);
  if (tags.includes(':')) return true;
  return forInput && tags === '.';
}

export function dgraphTypeName(d: Definition): string {
  const v = findArg(findDirective(d.directives, 'dgraph'), 'type')?.value;
  return v ? v.raw : d.name;
}

/** `@secret(field:)` as the write-only password field it declares. */
export function secretField(d: Definition): FieldDef | undefined {
  let out: FieldDef | undefined;
  for (const dir of d.directives) {
    if (dir.name !== 'secret') continue;
    const field = findArg(dir, 'field')?.value.raw;
    if (field) out = { name: field, args: [], type: { name: 'String', nonNull: true }, directives: [] };
  }
  return out;
}

function searchDirectiveArgs(dir: Directive): string[] {
  const by = findArg(dir, 'by')?.value;
  if (!by) return [];
  if (by.kind === 'List') return by.children.map((c) => c.value.raw);
  return [by.raw];
}

/**
 * The field's search arguments as Dgraph generates filters from them: defaults applied, `@id`
 * implying hash/int/int64, sorted alphabetically.
 */
export function effectiveSearchArgs(f: FieldDef, isEnum: boolean): string[] {
  const search = findDirective(f.directives, 'search');
  const id = hasIDDirective(f);
  const t = typeName(f.type);
  if (!search) {
    if (!id) return [];
    if (t === 'Int') return ['int'];
    if (t === 'Int64') return ['int64'];
    return ['hash'];
  }
  let args = searchDirectiveArgs(search);
  if (args.length === 0) {
    const def = isEnum ? 'hash' : DEFAULT_SEARCHES[t];
    args = def ? [def] : [];
  }
  if (id && t === 'String' && !args.includes('hash') && !args.includes('exact')) args = [...args, 'hash'];
  return [...args].sort();
}

export function lowerFirst(s: string): string {
  return s === '' ? s : s[0]!.toLowerCase() + s.slice(1);
}

/** Filter input names for a field's search args; enum hash/exact filters are named `<Enum>_hash`/`<Enum>_exact`. */
export function filterTypeNames(f: FieldDef, isEnum: boolean): string[] {
  const out: string[] = [];
  for (const arg of effectiveSearchArgs(f, isEnum)) {
    const spec = SUPPORTED_SEARCHES[arg];
    if (!spec || spec.filter === '') continue;
    out.push(isEnum && (arg === 'hash' || arg === 'exact') ? `${typeName(f.type)}_${arg}` : spec.filter);
  }
  return out;
}
