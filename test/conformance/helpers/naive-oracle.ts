// An independent answer for the query corpus: evaluates a GraphQL query over Dgraph seed JSON by
// scanning every node, reading the schema straight from the SDL with graphql-js (no engine code).
// It knows the generated API's shapes (get/query/aggregate, filters, order, pagination, @cascade,
// fragments, <edge>Aggregate) and Dgraph's rules: nodes in uid order unless ordered, nodes without
// the ordered value last, pagination after @cascade. What it does not model it refuses with
// OracleUnsupported, so a case is either answered or visibly not.

import {
  Kind,
  parse,
  valueFromASTUntyped,
  type DirectiveNode,
  type FieldDefinitionNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type TypeNode,
} from 'graphql';

export class OracleUnsupported extends Error {}

type Json = Record<string, unknown>;
type Vars = Record<string, unknown>;

interface OField {
  readonly name: string;
  readonly type: string;
  readonly list: boolean;
  readonly pred: string;
  readonly inverse?: string;
}
interface OType {
  readonly name: string;
  readonly kind: 'object' | 'interface' | 'union' | 'enum' | 'scalar';
  readonly dgraph: string;
  readonly fields: Map<string, OField>;
  readonly implements: string[];
  readonly members: string[];
  readonly xids: string[];
}
interface ONode {
  readonly seq: number;
  readonly uid: string | undefined;
  readonly types: string[];
  readonly values: Map<string, unknown>;
}

const scalars = new Set(['ID', 'String', 'Int', 'Int64', 'Float', 'Boolean', 'DateTime', 'Point', 'Polygon', 'MultiPolygon']);
const stopwords = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with', 'do', 'i', 'more', 'about', 'where', 'now']);

function named(t: TypeNode): { type: string; list: boolean } {
  if (t.kind === Kind.NON_NULL_TYPE) return named(t.type);
  if (t.kind === Kind.LIST_TYPE) return { type: named(t.type).type, list: true };
  return { type: t.name.value, list: false };
}

function directiveArg(directives: readonly DirectiveNode[] | undefined, name: string, arg: string): unknown {
  const d = directives?.find((x) => x.name.value === name);
  const a = d?.arguments?.find((x) => x.name.value === arg);
  return a === undefined ? undefined : valueFromASTUntyped(a.value);
}

export class NaiveOracle {
  readonly #types = new Map<string, OType>();
  readonly #nodes: ONode[] = [];
  #fragments = new Map<string, FragmentDefinitionNode>();
  #vars: Vars = {};

  /** `uids`: blank node → the uid the engine gave it, for nodes of types with an ID field. */
  constructor(sdl: string, data: Json[], uids: ReadonlyMap<string, string>) {
    const doc = parse(sdl);
    const interfaces = new Map<string, readonly FieldDefinitionNode[]>();
    const dgraphNames = new Map<string, string>();
    for (const def of doc.definitions) {
      if (def.kind === Kind.INTERFACE_TYPE_DEFINITION) interfaces.set(def.name.value, def.fields ?? []);
      if (def.kind === Kind.INTERFACE_TYPE_DEFINITION || def.kind === Kind.OBJECT_TYPE_DEFINITION) {
        dgraphNames.set(def.name.value, (directiveArg(def.directives, 'dgraph', 'type') as string | undefined) ?? def.name.value);
      }
    }
    for (const def of doc.definitions) {
      if (def.kind === Kind.ENUM_TYPE_DEFINITION) this.#add(def.name.value, 'enum', def.name.value, [], [], []);
      if (def.kind === Kind.UNION_TYPE_DEFINITION) this.#add(def.name.value, 'union', def.name.value, [], [], (def.types ?? []).map((t) => t.name.value));
      if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
      const name = def.name.value;
      const impl = (def.interfaces ?? []).map((i) => i.name.value);
      // Fields an interface declares are stored under the interface's predicate.
      const all = [...(def.fields ?? [])];
      for (const i of impl) for (const f of interfaces.get(i) ?? []) if (!all.some((x) => x.name.value === f.name.value)) all.push(f);
      const fields = all.map((f): OField => {
        const origin = impl.find((i) => (interfaces.get(i) ?? []).some((x) => x.name.value === f.name.value)) ?? name;
        const pred = (directiveArg(f.directives, 'dgraph', 'pred') as string | undefined) ?? `${dgraphNames.get(origin) ?? origin}.${f.name.value}`;
        const inverse = directiveArg(f.directives, 'hasInverse', 'field') as string | undefined;
        return { name: f.name.value, ...named(f.type), pred, ...(inverse === undefined ? {} : { inverse }) };
      });
      const xids = all.filter((f) => f.directives?.some((d) => d.name.value === 'id')).map((f) => f.name.value);
      const kind = def.kind === Kind.OBJECT_TYPE_DEFINITION ? 'object' : 'interface';
      this.#add(name, kind, dgraphNames.get(name) ?? name, fields, impl, [], xids);
    }
    const byBlank = new Map<string, ONode>();
    data.forEach((o, seq) => {
      const types = [o['dgraph.type']].flat() as string[];
      const values = new Map<string, unknown>();
      for (const [k, v] of Object.entries(o)) if (k !== 'uid' && k !== 'dgraph.type') values.set(k, v);
      // The seed's key of a node without an ID field is an @id value, not its uid.
      const withId = [...this.#types.values()].some((t) => t.kind === 'object' && types.includes(t.dgraph) && [...t.fields.values()].some((f) => f.type === 'ID'));
      const node = { seq, uid: withId ? uids.get(o['uid'] as string) : undefined, types, values };
      byBlank.set(o['uid'] as string, node);
      this.#nodes.push(node);
    });
    // Edges hold the nodes themselves; the seed goes through add mutations, which also set @hasInverse edges.
    for (const node of this.#nodes) {
      for (const [pred, v] of node.values) {
        if (!Array.isArray(v) && (v === null || typeof v !== 'object')) continue;
        if (Array.isArray(v) && !v.every((x) => typeof x === 'object' && x !== null && 'uid' in x)) continue;
        node.values.set(pred, [v].flat().map((x) => byBlank.get((x as { uid: string }).uid)));
      }
    }
    // @hasInverse on either side pairs the two fields both ways.
    const partner = new Map<OField, OField>();
    for (const t of this.#types.values()) {
      for (const f of t.fields.values()) {
        const back = f.inverse === undefined ? undefined : this.#types.get(f.type)?.fields.get(f.inverse);
        if (back === undefined) continue;
        partner.set(f, back);
        for (const impl of this.#types.values()) if (impl.fields.get(back.name)?.pred === back.pred) partner.set(impl.fields.get(back.name) as OField, f);
      }
    }
    for (const node of this.#nodes) {
      const type = this.#concrete(node);
      for (const f of type.fields.values()) {
        const back = partner.get(f);
        if (back === undefined) continue;
        for (const target of this.#edge(node, f)) {
          const list = (target.values.get(back.pred) as ONode[] | undefined) ?? [];
          if (!list.includes(node)) target.values.set(back.pred, [...list, node]);
        }
      }
    }
  }

  #add(name: string, kind: OType['kind'], dgraph: string, fields: OField[], impl: string[], members: string[], xids: string[] = []): void {
    this.#types.set(name, { name, kind, dgraph, fields: new Map(fields.map((f) => [f.name, f])), implements: impl, members, xids });
  }

  #concrete(node: ONode): OType {
    const t = [...this.#types.values()].find((x) => x.kind === 'object' && node.types.includes(x.dgraph));
    if (t === undefined) throw new OracleUnsupported(`no type for node ${node.types.join()}`);
    return t;
  }

  /** Whether the node is of the named object, interface or union type. */
  #is(node: ONode, typeName: string): boolean {
    const t = this.#types.get(typeName);
    if (t === undefined) return false;
    const c = this.#concrete(node);
    if (t.kind === 'union') return t.members.includes(c.name);
    return c.name === t.name || c.implements.includes(t.name);
  }

  #edge(node: ONode, f: OField): ONode[] {
    return ((node.values.get(f.pred) as ONode[] | undefined) ?? []).filter((n) => this.#is(n, f.type));
  }

  answer(query: string, variables: Vars = {}): Json {
    // gqlparser, Dgraph's parser, accepts an empty argument list `f()`; graphql-js does not.
    const doc = parse(query.replace(/\(\s*\)/g, ''));
    this.#vars = variables;
    this.#fragments = new Map(doc.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
    const ops = doc.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (ops.length !== 1 || ops[0]?.operation !== 'query') throw new OracleUnsupported('one query operation only');
    const out: Json = {};
    for (const field of this.#fields(ops[0].selectionSet, undefined)) out[(field.alias ?? field.name).value] = this.#root(field);
    return out;
  }

  #args(field: FieldNode): Json {
    return Object.fromEntries((field.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value, this.#vars)]));
  }

  /** Fields of a selection set for a node of `node`'s type (undefined: the root), after @skip/@include and fragments. */
  #fields(set: SelectionSetNode, node: ONode | undefined): FieldNode[] {
    const out: FieldNode[] = [];
    for (const s of set.selections) {
      if (!this.#included(s.directives)) continue;
      if (s.kind === Kind.FIELD) out.push(s);
      else {
        const frag = s.kind === Kind.FRAGMENT_SPREAD ? this.#fragments.get(s.name.value) : s;
        if (frag === undefined) throw new OracleUnsupported('unknown fragment');
        const on = frag.typeCondition?.name.value;
        if (on === undefined || node === undefined || this.#is(node, on)) out.push(...this.#fields(frag.selectionSet, node));
      }
    }
    return out;
  }

  #included(directives: readonly DirectiveNode[] | undefined): boolean {
    const condition = (d: string) => {
      const arg = directives?.find((x) => x.name.value === d)?.arguments?.[0];
      return arg === undefined ? undefined : valueFromASTUntyped(arg.value, this.#vars);
    };
    return condition('skip') !== true && condition('include') !== false;
  }

  #root(field: FieldNode): unknown {
    const name = field.name.value;
    const args = this.#args(field);
    if (name === '_entities') return this.#entities(field, args['representations'] as Json[]);
    // Password checks and vector searches are answered only over a type without nodes.
    const other = /^check(.+)Password$|^querySimilar(.+)By(?:Id|Embedding)$/.exec(name);
    const otherType = other === null ? undefined : (other[1] ?? other[2]);
    if (otherType !== undefined && this.#types.has(otherType) && !this.#nodes.some((n) => this.#is(n, otherType))) return other?.[1] === undefined ? [] : null;
    const match = /^(get|query|aggregate)(.+)$/.exec(name);
    const type = match === null ? undefined : this.#types.get(match[2] as string);
    if (match === null || type === undefined) throw new OracleUnsupported(`root field ${name}`);
    const all = this.#nodes.filter((n) => this.#is(n, type.name));
    const cascade = this.#cascade(field, undefined);
    if (match[1] === 'get') {
      const found = all.filter((n) => Object.entries(args).every(([k, v]) => (k === 'id' ? n.uid === v : this.#scalar(n, type.fields.get(k)) === v)));
      const kept = found.map((n) => this.#object(n, field, cascade)).filter((x) => x !== undefined);
      return kept[0] ?? null;
    }
    const filtered = this.#inUidOrder(all.filter((n) => this.#filter(n, type, args['filter'])));
    if (match[1] === 'aggregate') return this.#aggregate(filtered, type, field);
    return this.#list(filtered, type, field, args, cascade);
  }

  /** Apollo `_entities`: the nodes each representation's key names, in ascending key order (Dgraph's `orderasc`). */
  #entities(field: FieldNode, representations: Json[]): Json[] {
    const found = representations.flatMap((r) => {
      const type = this.#types.get(r['__typename'] as string);
      const [key, value] = Object.entries(r).find(([k]) => k !== '__typename') ?? [];
      const def = key === undefined ? undefined : type?.fields.get(key);
      if (type === undefined || def === undefined) throw new OracleUnsupported('entity representation');
      return this.#nodes.filter((n) => this.#is(n, type.name) && this.#scalar(n, def) === value).map((n) => ({ n, value: value as string }));
    });
    if (found.length > 1) throw new OracleUnsupported('ordering of several entities');
    return found.map(({ n }) => this.#object(n, field, undefined)).filter((x): x is Json => x !== undefined);
  }

  #list(nodes: ONode[], type: OType, field: FieldNode, args: Json, cascade: Cascade | undefined): Json[] {
    const ordered = args['order'] === undefined ? nodes : this.#order(nodes, type, args['order'] as Json);
    const objects = ordered.map((n) => this.#object(n, field, cascade)).filter((x): x is Json => x !== undefined);
    const offset = (args['offset'] as number | undefined) ?? 0;
    const first = args['first'] as number | undefined;
    return objects.slice(offset, first === undefined ? undefined : offset + first);
  }

  #inUidOrder(nodes: ONode[]): ONode[] {
    if (nodes.length > 1 && nodes.some((n) => n.uid === undefined)) throw new OracleUnsupported('uid order of nodes without an ID field');
    return [...nodes].sort((a, b) => Number(BigInt(a.uid as string) - BigInt(b.uid as string)));
  }

  #order(nodes: ONode[], type: OType, order: Json): ONode[] {
    const keys: { field: OField; desc: boolean }[] = [];
    for (let o: Json | undefined = order; o !== undefined && o !== null; o = o['then'] as Json | undefined) {
      const desc = o['desc'] !== undefined && o['desc'] !== null;
      const field = type.fields.get((desc ? o['desc'] : o['asc']) as string);
      if (field === undefined) break;
      keys.push({ field, desc });
    }
    // Dgraph sorts by the keys, nodes without the first key's value last; ties keep uid order.
    return [...nodes].sort((a, b) => {
      for (const { field, desc } of keys) {
        const [x, y] = [this.#sortable(a, field), this.#sortable(b, field)];
        if (x === undefined || y === undefined) {
          if (x === y) continue;
          return x === undefined ? 1 : -1;
        }
        const c = x < y ? -1 : x > y ? 1 : 0;
        if (c !== 0) return desc ? -c : c;
      }
      return 0;
    });
  }

  #sortable(node: ONode, field: OField): string | number | undefined {
    const v = node.values.get(field.pred);
    if (v === undefined || v === null) return undefined;
    if (field.type === 'DateTime') return Date.parse(v as string);
    return v as string | number;
  }

  #scalar(node: ONode, field: OField | undefined): unknown {
    if (field === undefined) return undefined;
    if (field.type === 'ID') return node.uid;
    return node.values.get(field.pred);
  }

  /** Dgraph's filter object: its keys other than `or` are ANDed, and `or` is ORed with that conjunction. */
  #filter(node: ONode, type: OType, filter: unknown): boolean {
    if (filter === undefined || filter === null) return true;
    const entries = Object.entries(filter as Json).filter(([, value]) => value !== null);
    const conjunction = entries.filter(([key]) => key !== 'or');
    const or = entries.find(([key]) => key === 'or')?.[1];
    const all = conjunction.every(([key, value]) => this.#term(node, type, key, value));
    if (or === undefined) return all;
    const any = [or].flat().some((f) => this.#filter(node, type, f));
    return conjunction.length === 0 ? any : all || any;
  }

  #term(node: ONode, type: OType, key: string, value: unknown): boolean {
    if (key === 'and') return [value].flat().every((f) => this.#filter(node, type, f));
    if (key === 'not') return !this.#filter(node, type, value);
    if (key === 'has') return [value].flat().every((f) => this.#has(node, type.fields.get(f as string)));
    const field = type.fields.get(key);
    if (field === undefined) throw new OracleUnsupported(`filter on ${key}`);
    if (field.type === 'ID') return (value as string[]).includes(node.uid as string);
    if (field.type === 'Boolean') return this.#scalar(node, field) === value;
    return Object.entries(value as Json).every(([op, arg]) => this.#test(node, field, op, arg));
  }

  #has(node: ONode, field: OField | undefined): boolean {
    const v = field === undefined ? undefined : this.#scalar(node, field);
    if (field !== undefined && !scalars.has(field.type) && this.#types.get(field.type)?.kind !== 'enum') return this.#edge(node, field).length > 0;
    return v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);
  }

  #test(node: ONode, field: OField, op: string, arg: unknown): boolean {
    // `eq: null` means "has no value"; the other functions given null are dropped.
    if (arg === null) return op === 'eq' ? !this.#has(node, field) : true;
    const stored = this.#scalar(node, field);
    if (stored === undefined || stored === null) return false;
    const values = [stored].flat() as (string | number | boolean)[];
    const norm = (v: unknown) => (field.type === 'DateTime' ? Date.parse(v as string) : v) as string | number | boolean;
    const any = (p: (v: string | number | boolean) => boolean) => values.some((v) => p(norm(v)));
    const a = norm(arg);
    switch (op) {
      case 'eq':
        return any((v) => v === a);
      case 'in':
        return any((v) => (arg as unknown[]).map(norm).includes(v));
      case 'lt':
        return any((v) => v < a);
      case 'le':
        return any((v) => v <= a);
      case 'gt':
        return any((v) => v > a);
      case 'ge':
        return any((v) => v >= a);
      case 'between': {
        const { min, max } = arg as { min: unknown; max: unknown };
        return any((v) => v >= norm(min) && v <= norm(max));
      }
      case 'allofterms':
      case 'anyofterms':
      case 'alloftext':
      case 'anyoftext': {
        const text = op.endsWith('text');
        const want = tokens(String(arg), text);
        return any((v) => {
          const have = new Set(tokens(String(v), text));
          return want.length > 0 && (op.startsWith('all') ? want.every((t) => have.has(t)) : want.some((t) => have.has(t)));
        });
      }
      case 'regexp': {
        const m = /^\/(.*)\/([a-z]*)$/s.exec(String(arg));
        if (m === null) throw new OracleUnsupported('regexp literal');
        const re = new RegExp(m[1] as string, m[2]);
        return any((v) => re.test(String(v)));
      }
      default:
        throw new OracleUnsupported(`filter function ${op}`);
    }
  }

  #cascade(field: FieldNode, inherited: Cascade | undefined): Cascade | undefined {
    const d = field.directives?.find((x) => x.name.value === 'cascade');
    if (d === undefined) return inherited?.all === true ? inherited : undefined;
    const arg = d.arguments?.find((a) => a.name.value === 'fields');
    if (arg === undefined) return { all: true };
    return { all: false, fields: [valueFromASTUntyped(arg.value, this.#vars)].flat() as string[] };
  }

  /** The node's answer object, or undefined when @cascade drops it. */
  #object(node: ONode, field: FieldNode, cascade: Cascade | undefined): Json | undefined {
    const type = this.#concrete(node);
    const out: Json = {};
    const required = new Set<string>();
    const fields = field.selectionSet === undefined ? [] : this.#fields(field.selectionSet, node);
    for (const f of fields) {
      const key = (f.alias ?? f.name).value;
      const name = f.name.value;
      if (name === '__typename') {
        out[key] = type.name;
        continue;
      }
      if (cascade?.all === true) required.add(key);
      const agg = /^(.+)Aggregate$/.exec(name);
      const def = type.fields.get(name) ?? (agg === null ? undefined : type.fields.get(agg[1] as string));
      if (def === undefined) throw new OracleUnsupported(`field ${type.name}.${name}`);
      const target = this.#types.get(def.type);
      const args = this.#args(f);
      if (def.name !== name) {
        const targetType = target as OType;
        out[key] = this.#aggregate(this.#edge(node, def).filter((n) => this.#filter(n, targetType, args['filter'])), targetType, f);
      } else if (target === undefined || target.kind === 'enum' || scalars.has(def.type)) {
        out[key] = this.#output(def, this.#scalar(node, def));
      } else {
        const child = this.#cascade(f, cascade);
        const edges = this.#edge(node, def).filter((n) => this.#filter(n, target, args['filter']));
        const members = args['filter'] === undefined ? undefined : (args['filter'] as Json)['memberTypes'];
        if (members !== undefined) throw new OracleUnsupported('union member filters');
        const list = this.#list(edges, target, f, args, child);
        out[key] = def.list ? list : (list[0] ?? null);
      }
    }
    if (cascade !== undefined) {
      if (cascade.all) {
        for (const key of required) if (out[key] === null || (Array.isArray(out[key]) && out[key].length === 0)) return undefined;
      } else {
        for (const name of cascade.fields) if (!this.#has(node, type.fields.get(name)) && !(name === 'id' && node.uid !== undefined)) return undefined;
      }
    }
    return out;
  }

  #output(def: OField, value: unknown): unknown {
    if (value === undefined || value === null) return def.list ? [] : null;
    const one = (v: unknown) => (def.type === 'DateTime' ? new Date(v as string).toISOString().replace('.000Z', 'Z') : v);
    return Array.isArray(value) ? value.map(one) : one(value);
  }

  #aggregate(nodes: ONode[], type: OType, field: FieldNode): Json {
    const out: Json = {};
    for (const f of field.selectionSet === undefined ? [] : this.#fields(field.selectionSet, undefined)) {
      const key = (f.alias ?? f.name).value;
      const name = f.name.value;
      if (name === 'count') {
        out[key] = nodes.length;
        continue;
      }
      if (name === '__typename') {
        out[key] = `${type.name}AggregateResult`;
        continue;
      }
      const m = /^(.+)(Min|Max|Sum|Avg)$/.exec(name);
      const def = m === null ? undefined : type.fields.get(m[1] as string);
      if (m === null || def === undefined) throw new OracleUnsupported(`aggregate field ${name}`);
      const values = nodes.map((n) => this.#scalar(n, def)).filter((v) => v !== undefined && v !== null) as (string | number)[];
      if (values.length === 0) {
        out[key] = null;
        continue;
      }
      const fn = m[2] as string;
      const sortable = (v: string | number) => (def.type === 'DateTime' ? Date.parse(v as string) : v);
      const pick = (better: (a: string | number, b: string | number) => boolean) => values.reduce((a, b) => (better(sortable(b), sortable(a)) ? b : a));
      const sum = () => (values as number[]).reduce((a, b) => a + b, 0);
      const result = fn === 'Min' ? pick((a, b) => a < b) : fn === 'Max' ? pick((a, b) => a > b) : fn === 'Sum' ? sum() : sum() / values.length;
      out[key] = this.#output({ ...def, list: false }, result);
    }
    return out;
  }
}

type Cascade = { readonly all: true } | { readonly all: false; readonly fields: readonly string[] };

/** Term tokens: lower-cased words. Full-text adds stop-word removal and a crude English stemmer (enough for the seed texts). */
function tokens(text: string, fulltext: boolean): string[] {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  if (!fulltext) return words;
  return words.filter((w) => !stopwords.has(w)).map((w) => w.replace(/(ing|ed|es|s)$/, ''));
}
