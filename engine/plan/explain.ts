// EXPLAIN text of query plans: one line per plan node, children indented, estimates in brackets.

import type { FilterPlan, QueryPlan } from './query-plan.js';

export function explainQuery(plan: QueryPlan): string {
  const lines = [`${plan.root}: ${plan.type}`];
  explainFilter(plan.filter, '  ', lines);
  if (plan.order.length > 0) {
    const keys = plan.order.map((k) => `${k.desc ? 'desc' : 'asc'} ${k.field}`).join(', ');
    const how = plan.strategy === 'index-walk' ? `walk ${plan.orderIndex ?? ''} index` : plan.strategy;
    lines.push(`  order ${keys} by ${how}`);
  }
  if (plan.first !== undefined || plan.offset > 0) {
    lines.push(`  page offset ${plan.offset}${plan.first === undefined ? '' : ` first ${plan.first}`}`);
  }
  return lines.join('\n');
}

function explainFilter(node: FilterPlan, indent: string, lines: string[]): void {
  switch (node.op) {
    case 'scan':
      lines.push(`${indent}scan type ${node.type} [${node.estimate}]`);
      return;
    case 'ids':
      lines.push(`${indent}ids ${node.count} [${node.estimate}]`);
      return;
    case 'has':
      lines.push(`${indent}has ${node.field} [${node.estimate}]`);
      return;
    case 'index':
      lines.push(`${indent}${node.fn} ${node.field} via ${node.index} [${node.estimate}]`);
      return;
    case 'not':
      lines.push(`${indent}not [${node.estimate}]`);
      explainFilter(node.child, `${indent}  `, lines);
      return;
    case 'and':
    case 'or':
      lines.push(`${indent}${node.op === 'and' ? 'intersect' : 'union'} [${node.estimate}]`);
      for (const child of node.children) explainFilter(child, `${indent}  `, lines);
  }
}
