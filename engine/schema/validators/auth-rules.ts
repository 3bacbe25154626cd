// `@auth` rule validation (REFERENCE §9.4), run once the API schema exists because GraphQL rules
// are validated against it. Errors carry no location, as in Dgraph.
import type { GraphQLSchema } from 'graphql';
import { GraphQLError, Kind, parse, validate } from 'graphql';
import type { SchemaError } from '../../api.js';
import type { Definition, Value } from '../sdl-ast.js';
import { findChild, findDirective } from '../sdl-ast.js';
import { toDgraphMessage } from '../../gqlparser/dgraph-messages.js';
import { inDgraphOrder, requestRules } from '../../gqlparser/dgraph-rules.js';
import { toGqlparserSyntax } from '../../gqlparser/syntax-errors.js';

const ONLY_ONE = 'there should be only one of "and", "or", "not" and "rule"';
const RBAC = /^{[\s]?(.*?)[\s]?:[\s]?{[\s]?(\w*)[\s]?:[\s]?(.*)[\s]?}[\s]?}$/s;

function rbacRule(t: string, rule: string): string | undefined {
  const m = RBAC.exec(rule);
  if (!m) return `Type ${t}: @auth: \`${rule}\` is not a valid rule.`;
  const variable = m[1] ?? '';
  const operator = m[2] ?? '';
  let operand: unknown;
  try {
    operand = JSON.parse(m[3] ?? '');
  } catch {
    return `Type ${t}: @auth: \`${variable}\` is not a valid GraphQL variable.`;
  }
  if (!variable.startsWith('$')) return `Type ${t}: @auth: \`${variable}\` is not a valid GraphQL variable.`;
  const shown = Array.isArray(operand) ? `[${operand.map(String).join(' ')}]` : String(operand);
  switch (operator) {
    case 'eq':
      return operand === null ? `Type ${t}: @auth: \`eq\` operator has invalid value. null values aren't supported.` : undefined;
    case 'in':
      return Array.isArray(operand) ? undefined : `Type ${t}: @auth: \`in\` operator has invalid value \`${shown}\`. Value should be an array.`;
    case 'regexp':
      return typeof operand === 'string' ? undefined : `Type ${t}: @auth: \`regexp\` operator has invalid value \`${shown}\`. Value should be of type String.`;
    default:
      return `Type ${t}: @auth: \`${operator}\` operator is not supported.`;
  }
}

function graphqlRule(t: string, rule: string, schema: GraphQLSchema): string | undefined {
  if (rule.trim() === '') return `Type ${t}: @auth: a rule should be exactly one query, found 0 GraphQL operations`;
  let doc;
  try {
    doc = parse(rule);
  } catch (e) {
    const msg = e instanceof GraphQLError ? toGqlparserSyntax(e, rule).message : String(e);
    return `Type ${t}: @auth: failed to parse GraphQL rule [reason : ${msg}]`;
  }
  const ops = doc.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (ops.length !== 1) return `Type ${t}: @auth: a rule should be exactly one query, found ${ops.length} GraphQL operations`;
  // Dgraph validates a rule as it validates a request: the same rules, the same words.
  const errs = inDgraphOrder(validate(schema, doc, requestRules));
  if (errs.length > 0) return `Type ${t}: @auth: failed to validate GraphQL rule [reason : ${toDgraphMessage(errs[0]!.message)}]`;
  return undefined;
}

function authNode(t: string, v: Value, schema: GraphQLSchema, errs: SchemaError[]): void {
  if (v.children.length === 0) {
    errs.push({ message: `Type ${t}: @auth: no arguments - ${ONLY_ONE}` });
    return;
  }
  let count = 0;
  const or = findChild(v, 'or')?.value;
  if (or && or.children.length > 0) {
    for (const c of or.children) authNode(t, c.value, schema, errs);
    if (or.children.length < 2) errs.push({ message: `Type ${t}: @auth: 'OR' should contain at least two rules` });
    count++;
  }
  const and = findChild(v, 'and')?.value;
  if (and && and.children.length > 0) {
    for (const c of and.children) authNode(t, c.value, schema, errs);
    count++;
  }
  const not = findChild(v, 'not')?.value;
  if (not && not.children.length > 0) {
    authNode(t, not, schema, errs);
    count++;
  }
  const rule = findChild(v, 'rule')?.value;
  if (rule) {
    const raw = rule.raw;
    const msg = raw.trim().startsWith('{') ? rbacRule(t, raw.trim()) : graphqlRule(t, raw, schema);
    if (msg) errs.push({ message: msg });
    count++;
  }
  if (count !== 1 || v.children.length > 1) errs.push({ message: `Type ${t}: @auth: ${ONLY_ONE}` });
}

export function validateAuthRules(defs: readonly Definition[], schema: GraphQLSchema): SchemaError[] {
  const errs: SchemaError[] = [];
  for (const d of defs) {
    const dir = findDirective(d.directives, 'auth');
    if (!dir) continue;
    for (const a of dir.args) authNode(d.name, a.value, schema, errs);
  }
  return errs;
}
