// Evaluates a parsed DQL query over the store and returns Dgraph's JSON shape: `{ <block>: [ {...} ] }`.
// `var` blocks run first; uid variables hold node sets, value variables per-node values (aggregated
// upwards through nested blocks for `sum/min/max/avg(val(x))`). Nodes with nothing to show are left
// out, as Dgraph does. Scans columns directly: custom DQL queries are small and rare.

import { fulltextTokenSet } from '../indexes/fulltext-analyzer.js';
import { compileRegexp, splitRegexpLiteral, type CompiledRegexp } from '../indexes/regexp-compile.js';
import { termTokens } from '../indexes/term-tokenizer.js';
import type { ScalarValue } from '../indexes/value-index.js';
import { GraphStore } from '../store/graph-store.js';
import { toOutputValue } from '../exec/stored-values.js';
import { DqlError, type Block, type BlockArgs, type DqlQuery, type FilterExpr, type FuncArg, type FuncCall, type Selection } from './parse-dql.js';

/** What the evaluator needs to know about a predicate (from the GraphQL schema model). */
export interface PredicateInfo {
  readonly edge: boolean;
  readonly isList: boolean;
  /** GraphQL scalar name for scalar predicates (`DateTime` compares as time). */
  readonly typeName: string;
  /** Has a trigram index: `regexp` may then be a root function. */
  readonly trigram: boolean;
}

export interface DqlContext {
  readonly store: GraphStore;
  readonly predicates: ReadonlyMap<string, PredicateInfo>;
  /** `$name` → value (already strings, as Dgraph passes them). */
  readonly variables: Readonly<Record<string, string>>;
  /** Variables the ACL removed with what defined them (acl/acl-dql.ts): empty, not undefined. */
  readonly removedVars?: ReadonlySet<string>;
}

type Collected = Map<string, unknown[]>;

export function evaluateDql(query: DqlQuery, ctx: DqlContext): Record<string, unknown> {
  return new Evaluator(query, ctx).run();
}

class Evaluator {
  readonly #uidVars = new Map<string, Set<number>>();
  readonly #valueVars = new Map<string, Map<number, unknown>>();
  readonly #variables: Map<string, string>;
  readonly #regexps = new Map<FuncCall, CompiledRegexp>();

  constructor(
    private readonly query: DqlQuery,
    private readonly ctx: DqlContext,
  ) {
    this.#variables = new Map();
    for (const [name, decl] of query.variables) {
      const value = ctx.variables[`$${name}`] ?? ctx.variables[name] ?? decl.defaultValue;
      if (value !== undefined) this.#variables.set(name, value);
    }
  }

  run(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const ordered = [...this.query.blocks.filter((b) => b.name === 'var'), ...this.query.blocks.filter((b) => b.name !== 'var')];
    for (const block of ordered) {
      const result = this.#block(block);
      if (block.name !== 'var') out[block.name] = result;
    }
    return out;
  }

  #block(block: Block): unknown[] {
    let ids = this.#rootIds(block.func);
    if (block.filter !== undefined) ids = ids.filter((id) => this.#matches(block.filter as FilterExpr, id));
    ids = this.#page(ids, block.args);
    if (block.varName !== undefined) this.#uidVars.set(block.varName, new Set(ids));
    if (block.groupBy !== undefined) return [{ '@groupby': this.#groupBy(ids, block.groupBy, block.children) }];
    const out: unknown[] = [];
    const countOnly = block.children.filter((s) => s.kind === 'count' && s.pred === 'uid');
    const rest = block.children.filter((s) => !(s.kind === 'count' && s.pred === 'uid'));
    for (const id of ids) {
      const object = this.#node(id, rest, new Map());
      if (Object.keys(object).length > 0) out.push(object);
    }
    for (const s of countOnly) out.push({ [s.alias ?? 'count']: ids.length });
    return out;
  }

  /** The fields of one node; value variables met below are added to `collected`. */
  #node(id: number, selections: readonly Selection[], collected: Collected): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const store = this.ctx.store;
    const later: Selection[] = [];
    for (const s of selections) {
      switch (s.kind) {
        case 'uid':
          out[s.alias ?? 'uid'] = uidOf(store, id);
          break;
        case 'count': {
          const info = this.ctx.predicates.get(s.pred);
          let n: number;
          if (s.reverse) n = store.edges(s.pred).inCount(id);
          else if (info?.edge !== false) n = store.edges(s.pred).outCount(id);
          else {
            const v = store.scalar(s.pred).get(id);
            n = v === undefined ? 0 : Array.isArray(v) ? v.length : 1;
          }
          out[s.alias ?? `count(${s.reverse ? '~' : ''}${s.pred})`] = n;
          if (s.varName !== undefined) this.#setValue(s.varName, id, n, collected);
          break;
        }
        case 'pred':
          this.#predicate(id, s, out, collected);
          break;
        default:
          later.push(s);
      }
    }
    // val() and aggregates read what the nested blocks collected.
    for (const s of later) {
      if (s.kind === 'val') {
        const value = this.#valueAt(s.name, id, collected);
        if (value !== undefined) out[s.alias ?? `val(${s.name})`] = value;
        if (s.varName !== undefined && value !== undefined) this.#setValue(s.varName, id, value, collected);
      } else if (s.kind === 'aggregate') {
        const values = (collected.get(s.name) ?? []).filter((v): v is number => typeof v === 'number');
        if (values.length === 0) continue;
        const value = aggregate(s.fn, values);
        out[s.alias ?? `${s.fn}(val(${s.name}))`] = value;
        if (s.varName !== undefined) this.#setValue(s.varName, id, value, collected);
      }
    }
    return out;
  }

  #predicate(id: number, s: Extract<Selection, { kind: 'pred' }>, out: Record<string, unknown>, collected: Collected): void {
    const store = this.ctx.store;
    const info = this.ctx.predicates.get(s.pred);
    const isEdge = s.reverse || s.children !== undefined || info?.edge === true;
    const key = s.alias ?? `${s.reverse ? '~' : ''}${s.pred}`;
    if (!isEdge) {
      const stored = store.scalar(s.pred).get(id);
      if (stored === undefined || stored === null) return;
      const value = Array.isArray(stored) ? (stored as readonly ScalarValue[]).map(toOutputValue) : toOutputValue(stored as ScalarValue);
      out[key] = value;
      if (s.varName !== undefined) this.#setValue(s.varName, id, value, collected);
      return;
    }
    const column = store.edges(s.pred);
    let targets: number[] = [...(s.reverse ? column.in(id) : column.out(id))];
    if (s.filter !== undefined) targets = targets.filter((t) => this.#matches(s.filter as FilterExpr, t));
    targets = this.#page(targets, s.args);
    if (s.varName !== undefined) {
      const set = this.#uidVars.get(s.varName) ?? new Set<number>();
      for (const t of targets) set.add(t);
      this.#uidVars.set(s.varName, set);
    }
    if (s.children === undefined || s.children.length === 0) return;
    const items: Record<string, unknown>[] = [];
    for (const t of targets) {
      const object = this.#node(t, s.children, collected);
      if (Object.keys(object).length > 0) items.push(object);
    }
    if (items.length === 0) return;
    out[key] = !s.reverse && info !== undefined && !info.isList ? items[0] : items;
  }

  #setValue(name: string, id: number, value: unknown, collected: Collected): void {
    let values = this.#valueVars.get(name);
    if (values === undefined) {
      values = new Map();
      this.#valueVars.set(name, values);
    }
    values.set(id, value);
    const list = collected.get(name);
    if (list === undefined) collected.set(name, [value]);
    else list.push(value);
  }

  #valueAt(name: string, id: number, collected: Collected): unknown {
    const own = this.#valueVars.get(name)?.get(id);
    if (own !== undefined) return own;
    const below = (collected.get(name) ?? []).filter((v): v is number => typeof v === 'number');
    return below.length === 0 ? undefined : aggregate('sum', below);
  }

  #groupBy(ids: readonly number[], preds: readonly string[], children: readonly Selection[]): unknown[] {
    const groups = new Map<string, { key: Record<string, unknown>; ids: number[] }>();
    for (const id of ids) {
      const key: Record<string, unknown> = {};
      let complete = true;
      for (const pred of preds) {
        const info = this.ctx.predicates.get(pred);
        if (info?.edge === true) {
          const first = this.ctx.store.edges(pred).firstOut(id);
          if (first === undefined) complete = false;
          else key[pred] = uidOf(this.ctx.store, first);
        } else {
          const v = this.ctx.store.scalar(pred).get(id);
          if (v === undefined || Array.isArray(v)) complete = false;
          else key[pred] = toOutputValue(v as ScalarValue);
        }
      }
      if (!complete) continue;
      const text = JSON.stringify(key);
      const group = groups.get(text);
      if (group === undefined) groups.set(text, { key, ids: [id] });
      else group.ids.push(id);
    }
    const out: Record<string, unknown>[] = [];
    for (const { key, ids: members } of groups.values()) {
      const row: Record<string, unknown> = { ...key };
      for (const s of children) {
        if (s.kind === 'count' && s.pred === 'uid') row[s.alias ?? 'count'] = members.length;
      }
      out.push(row);
    }
    return out.sort((a, b) => compareValues(Object.values(a)[0], Object.values(b)[0]));
  }

  #rootIds(func: FuncCall): number[] {
    const store = this.ctx.store;
    switch (func.name) {
      case 'uid':
        return [...this.#uidArgs(func.args)].sort((a, b) => a - b);
      case 'type':
        return [...store.nodesOfType(this.#text(func.args[0]))];
      default: {
        const pred = func.args[0];
        if (pred?.kind !== 'pred') throw new DqlError(`Function ${func.name} needs a predicate as its first argument`);
        const name = pred.name.replace(/^~/, '');
        const info = this.ctx.predicates.get(name);
        if (func.name === 'regexp' && info?.trigram !== true) {
          // Dgraph matches a regexp without an index only over a filter's given uids (worker/task.go).
          throw new DqlError(
            `Attribute ${name} does not have trigram index for regex matching. Please add a trigram index or use has/uid function with regexp() as filter.`,
          );
        }
        const candidates = pred.name.startsWith('~')
          ? store.edges(name).targets()
          : info?.edge === true
            ? store.edges(name).sources()
            : store.scalar(name).ids();
        return candidates.filter((id) => this.#call(func, id));
      }
    }
  }

  #uidArgs(args: readonly FuncArg[]): Set<number> {
    const out = new Set<number>();
    const add = (arg: FuncArg): void => {
      if (arg.kind === 'list') {
        for (const item of arg.items) add(item);
        return;
      }
      if (arg.kind === 'pred' || (arg.kind === 'literal' && !/^0x[0-9a-f]+$|^\d+$/i.test(arg.value))) {
        const name = arg.kind === 'pred' ? arg.name : arg.value;
        const uids = this.#uidVars.get(name);
        const values = this.#valueVars.get(name);
        if (uids === undefined && values === undefined && this.ctx.removedVars?.has(name) === true) return;
        if (uids === undefined && values === undefined) throw new DqlError(`Variable: [${name}] is used but not defined.`);
        for (const id of uids ?? []) out.add(id);
        for (const id of values?.keys() ?? []) out.add(id);
        return;
      }
      for (const text of this.#text(arg).split(',')) {
        const id = parseUid(text.trim());
        if (id !== undefined && this.ctx.store.nodeExists(id)) out.add(id);
      }
    };
    for (const arg of args) add(arg);
    return out;
  }

  #matches(expr: FilterExpr, id: number): boolean {
    switch (expr.kind) {
      case 'and':
        return expr.items.every((e) => this.#matches(e, id));
      case 'or':
        return expr.items.some((e) => this.#matches(e, id));
      case 'not':
        return !this.#matches(expr.item, id);
      case 'func':
        return this.#call(expr.call, id);
    }
  }

  /** Whether node `id` satisfies one function. */
  #call(func: FuncCall, id: number): boolean {
    const store = this.ctx.store;
    if (func.name === 'uid') return this.#uidArgs(func.args).has(id);
    if (func.name === 'type') return store.hasType(id, this.#text(func.args[0]));
    const [first, ...rest] = func.args;
    if (first === undefined) throw new DqlError(`Function ${func.name} needs arguments`);
    if (func.name === 'has') {
      if (first.kind !== 'pred') throw new DqlError('has() needs a predicate');
      const name = first.name.replace(/^~/, '');
      if (first.name.startsWith('~')) return store.edges(name).inCount(id) > 0;
      return this.ctx.predicates.get(name)?.edge === true ? store.edges(name).outCount(id) > 0 : store.scalar(name).has(id);
    }
    const values = this.#subjectValues(first, id);
    const args = rest.flatMap((a) => this.#texts(a));
    if (args.length === 0) throw new DqlError(`Function ${func.name} needs a value`);
    switch (func.name) {
      case 'eq':
        return values.some((v) => args.some((a) => compareTo(v, a, this.#typeOf(first)) === 0));
      case 'le':
      case 'lt':
      case 'ge':
      case 'gt': {
        const arg = args[0] as string;
        return values.some((v) => {
          const c = compareTo(v, arg, this.#typeOf(first));
          if (Number.isNaN(c)) return false;
          return func.name === 'le' ? c <= 0 : func.name === 'lt' ? c < 0 : func.name === 'ge' ? c >= 0 : c > 0;
        });
      }
      case 'regexp': {
        const re = this.#regexp(func, args[0] as string);
        return values.some((v) => typeof v === 'string' && re.test(v));
      }
      case 'allofterms':
      case 'anyofterms':
      case 'alloftext':
      case 'anyoftext': {
        const text = func.name.endsWith('text');
        const wanted = text ? [...fulltextTokenSet(args.join(' '))] : termTokens(args.join(' '));
        if (wanted.length === 0) return false;
        return values.some((v) => {
          if (typeof v !== 'string') return false;
          const have = text ? fulltextTokenSet(v) : new Set(termTokens(v));
          return func.name.startsWith('all') ? wanted.every((w) => have.has(w)) : wanted.some((w) => have.has(w));
        });
      }
      default:
        throw new DqlError(`Function ${func.name} is not supported`);
    }
  }

  /** `regexp`'s second argument, `/expr/flags` (a literal or a variable's value), compiled once per evaluation. */
  #regexp(func: FuncCall, text: string): CompiledRegexp {
    let re = this.#regexps.get(func);
    if (re === undefined) {
      if (text === '') throw new DqlError(`Found empty regex: [${text}]`);
      const parts = splitRegexpLiteral(text);
      if (parts === undefined) throw new DqlError(`Found invalid regex: [${text}]`);
      try {
        re = compileRegexp(parts.pattern, parts.flags);
      } catch (error) {
        throw new DqlError((error as Error).message);
      }
      this.#regexps.set(func, re);
    }
    return re;
  }

  /** The values a comparison looks at: a predicate's values, `count(pred)` or `val(x)`. */
  #subjectValues(arg: FuncArg, id: number): unknown[] {
    const store = this.ctx.store;
    if (arg.kind === 'val') {
      const v = this.#valueVars.get(arg.name)?.get(id);
      return v === undefined ? [] : [v];
    }
    if (arg.kind === 'count') return [store.edges(arg.pred.replace(/^~/, '')).outCount(id)];
    if (arg.kind !== 'pred') throw new DqlError('Expected a predicate');
    const v = store.scalar(arg.name).get(id);
    if (v === undefined) return [];
    return Array.isArray(v) ? [...(v as unknown[])] : [v];
  }

  #typeOf(arg: FuncArg): string {
    return arg.kind === 'pred' ? (this.ctx.predicates.get(arg.name)?.typeName ?? '') : '';
  }

  #texts(arg: FuncArg): string[] {
    return arg.kind === 'list' ? arg.items.flatMap((a) => this.#texts(a)) : [this.#text(arg)];
  }

  #text(arg: FuncArg | undefined): string {
    if (arg === undefined) throw new DqlError('Missing argument');
    switch (arg.kind) {
      case 'literal':
        return arg.value;
      case 'pred':
        return arg.name;
      case 'variable': {
        const value = this.#variables.get(arg.name);
        if (value === undefined) throw new DqlError(`Variable $${arg.name} not defined.`);
        return value;
      }
      default:
        throw new DqlError('Unexpected argument');
    }
  }

  #page(ids: number[], args: BlockArgs): number[] {
    let out = ids;
    if (args.order.length > 0) {
      const keys = args.order.map((o) => ({ o, values: new Map(out.map((id) => [id, this.#orderValue(o.by, o.val, id)])) }));
      out = [...out].sort((a, b) => {
        for (const { o, values } of keys) {
          const va = values.get(a);
          const vb = values.get(b);
          if (va === undefined || vb === undefined) {
            if (va !== vb) return va === undefined ? 1 : -1;
            continue;
          }
          const c = compareValues(va, vb);
          if (c !== 0) return o.desc ? -c : c;
        }
        return a - b;
      });
    }
    if (args.after !== undefined) {
      const after = parseUid(this.#text(args.after)) ?? 0;
      out = out.filter((id) => id > after);
    }
    const offset = args.offset === undefined ? 0 : Number(this.#text(args.offset));
    const first = args.first === undefined ? undefined : Number(this.#text(args.first));
    if (!Number.isInteger(offset) || (first !== undefined && !Number.isInteger(first))) throw new DqlError('first/offset must be integers');
    if (first !== undefined && first < 0) return out.slice(Math.max(0, out.length + first - offset), out.length - offset);
    return out.slice(offset, first === undefined ? undefined : offset + first);
  }

  #orderValue(by: string, val: boolean, id: number): unknown {
    if (val) return this.#valueVars.get(by)?.get(id);
    const v = this.ctx.store.scalar(by).get(id);
    if (v === undefined || Array.isArray(v)) return undefined;
    return this.ctx.predicates.get(by)?.typeName === 'DateTime' && typeof v === 'string' ? Date.parse(v) : v;
  }
}

function aggregate(fn: 'sum' | 'min' | 'max' | 'avg', values: readonly number[]): number {
  switch (fn) {
    case 'sum':
      return values.reduce((a, b) => a + b, 0);
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
    case 'avg':
      return values.reduce((a, b) => a + b, 0) / values.length;
  }
}

/** A stored value against a query argument (text): numbers numerically, DateTime as time, else text. */
function compareTo(stored: unknown, arg: string, typeName: string): number {
  if (typeof stored === 'number') return stored - Number(arg);
  if (typeof stored === 'bigint') {
    try {
      const b = BigInt(arg);
      return stored < b ? -1 : stored > b ? 1 : 0;
    } catch {
      return NaN;
    }
  }
  if (typeof stored === 'boolean') return stored === (arg === 'true') ? 0 : NaN;
  if (typeof stored === 'string' && typeName === 'DateTime') return Date.parse(stored) - Date.parse(arg);
  return String(stored) < arg ? -1 : String(stored) > arg ? 1 : 0;
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function uidOf(_store: GraphStore, id: number): string {
  return GraphStore.uidOf(id);
}

function parseUid(text: string): number | undefined {
  return GraphStore.parseUid(text);
}
