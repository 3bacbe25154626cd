// A `@custom(dql:)` query as edgraph.authorizeQuery leaves it for a non-guardian (Dgraph runs custom
// DQL through the same ACL-checked query path as the GraphQL layer's own queries): the predicates it
// reads that the view cannot READ are removed, with every variable defined on one of them —
// - a block whose function reads one (its first argument, `count(p)`, or such a value variable);
// - a nested block, `count(p)` or `val(x)` on one; an order or `@groupby` key on one;
// - a filter leaf on one. Its parent keeps the others (Dgraph's AND/NOT special case compares
//   upper-case names its parser never makes), and a node left without children passes every node.
// `type(T)` and `uid(…)` name no predicate and are never removed. A variable no longer defined is empty
// (Dgraph skips a missing variable when it fills a block's). Pruned once per (parsed query, view).

import type { Block, DqlQuery, FilterExpr, FuncCall, Order, Selection } from '../dql/parse-dql.js';
import type { AclReads } from './acl-read.js';

export interface PrunedDql {
  readonly query: DqlQuery;
  /** Variables defined only in removed parts: read as empty. */
  readonly removedVars: ReadonlySet<string>;
  /** Names of the removed blocks (a GraphQL field reading one completes as Dgraph's missing block: `[]` or null). */
  readonly removedBlocks: ReadonlySet<string>;
}

const cache = new WeakMap<DqlQuery, WeakMap<AclReads, PrunedDql>>();

export function pruneDql(query: DqlQuery, reads: AclReads): PrunedDql {
  let byView = cache.get(query);
  if (byView === undefined) cache.set(query, (byView = new WeakMap()));
  let pruned = byView.get(reads);
  if (pruned === undefined) byView.set(reads, (pruned = new Pruner(query, reads).run()));
  return pruned;
}

/** Passes every node: what an and/or/not left without children does. */
const PASSES_ALL: FilterExpr = { kind: 'and', items: [] };

class Pruner {
  /** Unreadable predicates read, and the variables defined on them (parsePredsFromQuery, then its blocked variables). */
  readonly #blocked = new Set<string>();
  readonly #defined = new Set<string>();
  readonly #kept = new Set<string>();
  readonly #removedBlocks = new Set<string>();

  constructor(
    private readonly query: DqlQuery,
    private readonly reads: AclReads,
  ) {}

  run(): PrunedDql {
    const varsOn = new Map<string, string[]>();
    const preds = new Set<string>();
    for (const block of this.query.blocks) this.#collect(block, preds, varsOn);
    for (const pred of preds) {
      // A variable read as an attribute (`eq(val(x), …)`) is no predicate: blocked only with the one it is defined on.
      if (this.#defined.has(pred) || this.reads.reads(pred)) continue;
      this.#blocked.add(pred);
      for (const name of varsOn.get(pred) ?? []) this.#blocked.add(name);
    }
    if (this.#blocked.size === 0) return { query: this.query, removedVars: new Set(), removedBlocks: new Set() };
    const blocks: Block[] = [];
    for (const block of this.query.blocks) {
      if (this.#isBlocked(funcAttr(block.func))) {
        this.#removedBlocks.add(block.name);
        continue;
      }
      if (block.varName !== undefined) this.#kept.add(block.varName);
      const { filter, groupBy, ...rest } = block;
      blocks.push({
        ...rest,
        ...this.#filterOf(filter),
        ...(groupBy === undefined ? {} : { groupBy: groupBy.filter((attr) => !this.#blocked.has(attr)) }),
        args: { ...block.args, order: this.#orders(block.args.order) },
        children: this.#selections(block.children),
      });
    }
    const removedVars = new Set([...this.#defined].filter((name) => !this.#kept.has(name)));
    return { query: { variables: this.query.variables, blocks }, removedVars, removedBlocks: this.#removedBlocks };
  }

  #isBlocked(attr: string | undefined): boolean {
    return attr !== undefined && this.#blocked.has(attr);
  }

  #collect(block: Block | Selection, preds: Set<string>, varsOn: Map<string, string[]>): void {
    const define = (name: string | undefined, attr: string): void => {
      if (name === undefined) return;
      this.#defined.add(name);
      const list = varsOn.get(attr);
      if (list === undefined) varsOn.set(attr, [name]);
      else list.push(name);
    };
    if ('func' in block) {
      const attr = funcAttr(block.func);
      if (attr !== undefined) preds.add(attr);
      define(block.varName, 'var');
      for (const order of block.args.order) if (!order.val) preds.add(order.by);
      for (const attr of block.groupBy ?? []) preds.add(attr);
      if (block.filter !== undefined) filterAttrs(block.filter, preds);
      for (const child of block.children) this.#collect(child, preds, varsOn);
      return;
    }
    if (block.kind === 'pred' || block.kind === 'count') {
      const attr = selectionAttr(block);
      preds.add(attr);
      define(block.varName, attr);
      if (block.kind === 'pred') {
        for (const order of block.args.order) if (!order.val) preds.add(order.by);
        if (block.filter !== undefined) filterAttrs(block.filter, preds);
        for (const child of block.children ?? []) this.#collect(child, preds, varsOn);
      }
      return;
    }
    define(block.varName, block.kind === 'val' ? 'val' : block.kind === 'aggregate' ? block.fn : 'uid');
  }

  #selections(children: readonly Selection[]): Selection[] {
    const out: Selection[] = [];
    for (const child of children) {
      if ((child.kind === 'pred' || child.kind === 'count') && this.#blocked.has(selectionAttr(child))) continue;
      if (child.kind === 'val' && this.#blocked.has(child.name)) continue;
      if (child.varName !== undefined) this.#kept.add(child.varName);
      if (child.kind !== 'pred') {
        out.push(child);
        continue;
      }
      const { filter, children: nested, ...rest } = child;
      out.push({
        ...rest,
        ...this.#filterOf(filter),
        ...(nested === undefined ? {} : { children: this.#selections(nested) }),
        args: { ...child.args, order: this.#orders(child.args.order) },
      });
    }
    return out;
  }

  /** The `filter` property of a pruned block (none when it passes every node). */
  #filterOf(filter: FilterExpr | undefined): { filter?: FilterExpr } {
    const pruned = filter === undefined ? undefined : this.#filter(filter);
    return pruned === undefined || pruned === PASSES_ALL ? {} : { filter: pruned };
  }

  #orders(orders: readonly Order[]): Order[] {
    return orders.filter((order) => order.val || !this.#blocked.has(order.by));
  }

  /** removeFilters: undefined when the leaf goes; a node keeps its other children (none left: passes all). */
  #filter(expr: FilterExpr): FilterExpr | undefined {
    switch (expr.kind) {
      case 'func':
        return this.#isBlocked(funcAttr(expr.call)) ? undefined : expr;
      case 'not': {
        const item = this.#filter(expr.item);
        return item === undefined ? PASSES_ALL : item === expr.item ? expr : { kind: 'not', item };
      }
      case 'and':
      case 'or': {
        const items = expr.items.map((item) => this.#filter(item)).filter((item) => item !== undefined);
        if (items.length === 0) return PASSES_ALL;
        return items.length === expr.items.length && items.every((item, i) => item === expr.items[i]) ? expr : { kind: expr.kind, items };
      }
    }
  }
}

/** The predicate (or value variable) a function reads, as Dgraph's parser sets Function.Attr. */
function funcAttr(call: FuncCall): string | undefined {
  if (call.name === 'uid' || call.name === 'type') return undefined;
  const first = call.args[0];
  if (first === undefined) return undefined;
  if (first.kind === 'pred' || first.kind === 'val') return first.name;
  return first.kind === 'count' ? first.pred : undefined;
}

function selectionAttr(selection: Selection & { kind: 'pred' | 'count' }): string {
  return selection.reverse ? `~${selection.pred}` : selection.pred;
}

function filterAttrs(expr: FilterExpr, into: Set<string>): void {
  if (expr.kind === 'func') {
    const attr = funcAttr(expr.call);
    if (attr !== undefined) into.add(attr);
  } else if (expr.kind === 'not') filterAttrs(expr.item, into);
  else for (const item of expr.items) filterAttrs(item, into);
}
