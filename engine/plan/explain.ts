// EXPLAIN text of query plans: one line per plan node, children indented, estimates in brackets.
// After a run, each filter node adds the ids it produced (`got N`) and a `ran` line names the page
// step that actually ran, over how many candidates.

import { valueAt, type FilterPlan } from './filter-plan.js';
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
  if (page.first !== undefined || page.offset > 0) {
    lines.push(`  page offset ${page.offset}${page.first === undefined ? '' : ` first ${page.first}`}`);
  }
  if (run !== undefined) {
    let how = run.strategy === 'sort after @cascade' ? run.strategy : strategyName(run.strategy, plan);
    if (run.walked !== undefined) {
      const keep = run.strategy === 'range-first-k' ? `keeping the first ${pageLimit(page) ?? 0}` : 'checking each node';
      how = `walk ${run.walked} index through the range, ${keep}`;
    }
    const over = streamStrategies.has(run.strategy) ? `(${run.candidates} nodes checked)` : `over ${run.candidates} candidates`;
    lines.push(`  ran ${how} ${over}${run.cachedPrefix ? ' (cached prefix)' : ''}`);
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

function explainFilter(node: FilterPlan, indent: string, lines: string[], filter: unknown, run: QueryRun | undefined): void {
  // A streamed page produces no id lists: its nodes were checked one by one instead.
  const produced = run?.produced.get(node);
  const got = produced === undefined ? '' : ` got ${produced}`;
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
      return explainFilter(node.child, `${indent}  `, lines, filter, run);
    case 'and':
    case 'or':
      line(node.op === 'and' ? 'intersect' : 'union');
      for (const child of node.children) explainFilter(child, `${indent}  `, lines, filter, run);
  }
}
