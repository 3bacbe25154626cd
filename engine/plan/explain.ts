// EXPLAIN text of query plans: one line per plan node, children indented, estimates in brackets.
// After a run, each filter node adds the ids it produced (`got N`) and a `ran` line names the page
// step that actually ran, over how many candidates.

import { valueAt, type FilterPlan } from './filter-plan.js';
import { choosePage, pageLimit, pageParams, type PageStrategy } from './order-plan.js';
import type { QueryPlan, QueryRun } from './query-plan.js';

/** `args` are the request's arguments (`has` field names and the page are values, not plan). */
export function explainQuery(plan: QueryPlan, args: Readonly<Record<string, unknown>>, run?: QueryRun): string {
  const lines = [`${plan.root}: ${plan.type}`];
  explainFilter(plan.filter, '  ', lines, args['filter'], run);
  const page = pageParams(args);
  if (plan.order.keys.length > 0) {
    const keys = plan.order.keys.map((k) => `${k.desc ? 'desc' : 'asc'} ${k.field}`).join(', ');
    const how = choosePage(plan.order, pageLimit(page), plan.filter.estimate, plan.total);
    lines.push(`  order ${keys} by ${strategyName(how, plan)}`);
  }
  if (page.first !== undefined || page.offset > 0) {
    lines.push(`  page offset ${page.offset}${page.first === undefined ? '' : ` first ${page.first}`}`);
  }
  if (run !== undefined) {
    const ran = run.strategy;
    if (ran === 'checked-walk') lines.push(`  ran walk ${plan.order.walk ?? ''} index checking the filter per node: ${run.visited} visited, ${run.candidates} kept`);
    else if (ran === 'checked-scan') lines.push(`  ran unordered page from the smallest list checking the filter per node: ${run.visited} visited, ${run.candidates} kept`);
    else {
      const how = ran === 'sort after @cascade' ? ran : strategyName(ran, plan);
      const gaveUp = run.visited > 0 ? ` (after a walk checking the filter gave up at ${run.visited} visited)` : '';
      lines.push(`  ran ${how} over ${run.candidates} candidates${run.cachedPrefix ? ' (cached prefix)' : ''}${gaveUp}`);
    }
  }
  return lines.join('\n');
}

function strategyName(strategy: PageStrategy, plan: QueryPlan): string {
  if (strategy === 'none') return 'unordered page';
  return strategy === 'index-walk' ? `walk ${plan.order.walk ?? ''} index` : strategy;
}

/** After a run, a node shows the ids it produced, or `checked` when it (or a node above it) was tested per candidate. */
function explainFilter(node: FilterPlan, indent: string, lines: string[], filter: unknown, run: QueryRun | undefined, underCheck = false): void {
  const produced = run?.produced.get(node);
  const checked = underCheck || (run?.checked.has(node) ?? false);
  const got = run === undefined ? '' : produced === undefined && checked ? ' checked' : ` got ${produced ?? 0}`;
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
      return explainFilter(node.child, `${indent}  `, lines, filter, run, checked);
    case 'and':
    case 'or':
      line(node.op === 'and' ? 'intersect' : 'union');
      for (const child of node.children) explainFilter(child, `${indent}  `, lines, filter, run, checked);
  }
}
