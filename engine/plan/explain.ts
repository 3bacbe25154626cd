// EXPLAIN text of query plans: one line per plan node, children indented, estimates in brackets.
// After a run, each filter node adds the ids it produced (`got N`) and a `ran` line names the page
// step that actually ran, over how many candidates.

import { valueAt, type FilterPlan, type FilterStep } from './filter-plan.js';
import { choosePage, pageLimit, pageParams, type PageStrategy } from './order-plan.js';
import type { QueryPlan, QueryRun } from './query-plan.js';
import { chooseStream, type StreamStrategy } from './stream-plan.js';

/** `args` are the request's arguments (`has` field names and the page are values, not plan). */
export function explainQuery(plan: QueryPlan, args: Readonly<Record<string, unknown>>, run?: QueryRun): string {
  const lines = [`${plan.root}: ${plan.type}`];
  explainFilter(plan.filter, '  ', lines, args['filter'], run);
  const page = pageParams(args);
  const streamed = plan.stream === undefined ? undefined : chooseStream(plan.stream, plan.order, pageLimit(page), plan.filter.estimate, plan.total);
  if (plan.order.keys.length > 0) {
    const keys = plan.order.keys.map((k) => `${k.desc ? 'desc' : 'asc'} ${k.field}`).join(', ');
    const how = streamed ?? choosePage(plan.order, pageLimit(page), plan.filter.estimate, plan.total);
    lines.push(`  order ${keys} by ${strategyName(how, plan)}`);
  } else if (streamed !== undefined) lines.push(`  uid order by ${strategyName(streamed, plan)}`);
  if (plan.nearCells) lines.push(`  or merge the geo grid's cells in ${plan.order.keys[0]?.field ?? ''} order, when cheaper for the cap`);
  if (page.first !== undefined || page.offset > 0) {
    lines.push(`  page offset ${page.offset}${page.first === undefined ? '' : ` first ${page.first}`}`);
  }
  if (run !== undefined) {
    const ran = run.strategy;
    if (ran === 'checked-walk') lines.push(`  ran walk ${plan.order.walk ?? ''} index checking the filter per node: ${run.visited} visited, ${run.candidates} kept`);
    else if (ran === 'list-order') lines.push(`  ran the smallest list in page order (its first k cached) checking the filter per node: ${run.visited} visited, ${run.candidates} kept`);
    else if (ran === 'near-cells') {
      const { whole, cells, placed, inside, ordered, collect } = run.nearCells ?? { whole: false, cells: 0, placed: 0, inside: 0, ordered: 0, collect: 0 };
      lines.push(`  ran merge of ${cells} grid ${whole ? 'buckets' : 'cells'} (${placed} reached and placed against the cap, ${inside} inside it; ${ordered} points ordered): ${run.visited} taken, ${run.candidates} kept (collecting: ~${Math.round(collect)})`);
    } else if (ran === 'checked-scan') lines.push(`  ran unordered page from the smallest list checking the filter per node: ${run.visited} visited, ${run.candidates} kept`);
    else {
      let how = ran === 'sort after @cascade' ? ran : strategyName(ran, plan);
      if (run.walked !== undefined) {
        const keep = ran === 'range-first-k' ? `keeping the first ${pageLimit(page) ?? 0}` : 'checking each node';
        how = `walk ${run.walked} index through the range, ${keep}`;
        if (run.idOrder !== undefined) how += run.idOrder ? ', the matches put in uid order for a Sum/Avg' : ', the matches reduced in walk order';
      }
      const over = streamStrategies.has(ran) ? `(${run.candidates} nodes checked)` : `over ${run.candidates} candidates`;
      const gaveUp = run.visited > 0 ? ` (after a walk checking the filter gave up at ${run.visited} visited)` : '';
      const lists = run.unionLists === undefined ? '' : `: the first k of each of ${run.unionLists.count} lists${run.cachedPrefix ? ' (cached)' : ''}`;
      lines.push(`  ran ${how} ${over}${lists === '' && run.cachedPrefix ? ' (cached prefix)' : lists}${gaveUp}`);
    }
  }
  return lines.join('\n');
}

const streamStrategies = new Set<string>(['range-walk', 'walk-check', 'scan-check', 'range-first-k']);

function strategyName(strategy: PageStrategy | StreamStrategy, plan: QueryPlan): string {
  switch (strategy) {
    case 'none':
      return 'unordered page';
    case 'index-walk':
      return `walk ${plan.order.walk ?? ''} index`;
    case 'range-walk':
      return `walk ${plan.order.walk ?? ''} index from the range bound, checking each node`;
    case 'walk-check':
      return `walk ${plan.order.walk ?? ''} index, checking each node`;
    case 'scan-check':
      return 'scan of the type, checking each node';
    default:
      return strategy;
  }
}

/**
 * After a run, a node shows the ids it produced, or `checked` when it (or a node above it) was tested
 * per candidate (a checked walk or scan, a streamed page, the small side of an intersection).
 */
function explainFilter(node: FilterPlan, indent: string, lines: string[], filter: unknown, run: QueryRun | undefined, underCheck = false, underLists = false): void {
  const produced = run?.produced.get(node);
  const checked = underCheck || (run?.checked.has(node) ?? false);
  const listed = underLists || run?.unionLists?.node === node;
  const got = run === undefined ? '' : listed ? ' lists read for their first k' : produced === undefined && checked ? ' checked' : ` got ${produced ?? 0}`;
  const line = (text: string): void => void lines.push(`${indent}${text} [${node.estimate}]${got}`);
  switch (node.op) {
    case 'scan':
      return line(`scan type ${node.type}`);
    case 'ids':
      return line(`ids ${node.count}`);
    case 'has':
      return line(`has ${node.field ?? String(valueAt(filter, node.at))}`);
    case 'index':
      return line(`${node.fn} ${node.field} via ${node.index}`);
    case 'fail':
      return line(`fail: ${node.message}`);
    case 'not':
      line('not');
      return explainFilter(node.child, `${indent}  `, lines, filter, run, checked, listed);
    case 'and':
    case 'or':
      line(node.op === 'and' ? 'intersect' : 'union');
      for (const child of node.children) explainFilter(child, `${indent}  `, lines, filter, run, checked, listed);
  }
}

/** What one edge field occurrence did over every parent of a request (filled by exec/ only for EXPLAIN). */
export interface EdgeRun {
  /** `Parent.field` and the target type. */
  readonly edge: string;
  readonly target: string;
  /** The edge's filter plan, if it has a filter. */
  filter: FilterPlan | undefined;
  /** The request's filter value (`has` field names are values). */
  filterValue: unknown;
  parents: number;
  targets: number;
  kept: number;
  /** Parents per filter step and per page step that ran. */
  readonly filterSteps: Map<FilterStep, number>;
  readonly pageSteps: Map<PageStrategy, number>;
}

export function newEdgeRun(edge: string, target: string): EdgeRun {
  return { edge, target, filter: undefined, filterValue: undefined, parents: 0, targets: 0, kept: 0, filterSteps: new Map(), pageSteps: new Map() };
}

/** An edge's plan and what ran, summed over its parents: filter step and page step with their parent counts. */
export function explainEdge(run: EdgeRun): string {
  const lines = [`${run.edge}: ${run.target} per parent (${run.parents} parents, ${run.targets} targets, ${run.kept} kept)`];
  if (run.filter !== undefined) explainFilter(run.filter, '  ', lines, run.filterValue, undefined);
  const counted = (steps: Map<string, number>): string => [...steps].map(([step, n]) => `${step} (${n})`).join(', ');
  if (run.filterSteps.size > 0) lines.push(`  ran filter by ${counted(run.filterSteps)}`);
  if (run.pageSteps.size > 0) lines.push(`  ran page by ${counted(run.pageSteps)}`);
  return lines.join('\n');
}
