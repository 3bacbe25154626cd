// Before timing: ask each contender a sample of every scenario's varied requests and compare its data
// with the answer computed from the data set. A contender that answers one wrongly is marked invalid
// for that scenario.

import type { Dataset } from '../data/dataset.js';
import { checkedVariants, idPool } from '../matrix/varied-shape.js';
import { uniqueNumber } from '../matrix/write-shapes.js';
import type { ContenderIds, Scenario } from '../scenarios.js';
import type { RequestBodies } from './autocannon-run.js';
import { dataOf, postJson } from './graphql-client.js';

/** Looks up the ids the contender gave the posts of the id pool, by their @id field. */
export async function resolveIds(graphqlUrl: string, data: Dataset): Promise<ContenderIds> {
  const slugs = idPool(data);
  const reply = await postJson(graphqlUrl, { query: 'query ($slugs: [String]) { queryPost(filter: { slug: { in: $slugs } }) { id slug } }', variables: { slugs } });
  const found = (dataOf(reply) as { queryPost?: { id: string; slug: string }[] } | null)?.queryPost ?? [];
  const ids = new Map(found.map((p) => [p.slug, p.id]));
  if (ids.size !== slugs.length) throw new Error(`resolved ${ids.size} of ${slugs.length} pool ids (${data.posts.length} posts loaded?): ${reply.text.slice(0, 200)}`);
  return { idOf: (slug) => ids.get(slug) ?? `no id for ${slug}` };
}

/** `null` when the answers to the first `checkedVariants` requests (one for a mutation) are right, else the first wrong one. */
export async function checkAnswer(graphqlUrl: string, scenario: Scenario, ids: ContenderIds, runTag: string): Promise<string | null> {
  const count = scenario.numbered !== undefined ? 1 : Math.min(scenario.variants, checkedVariants);
  for (let n = 0; n < count; n++) {
    const body = { query: scenario.document, variables: scenario.variables(ids, n, runTag) };
    try {
      const wrong = scenario.check(dataOf(await postJson(graphqlUrl, body)), ids, n, runTag);
      if (wrong !== null) return `request ${n} (${JSON.stringify(body.variables).slice(0, 120)}): ${wrong}`;
    } catch (error) {
      return `request ${n}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return null;
}

/** Every variant's body, or for a numbered shape each variant's body split where the request counter goes. */
export function requestBodies(scenario: Scenario, ids: ContenderIds, runTag: string): RequestBodies {
  const text = (variables: Record<string, unknown>): string => JSON.stringify({ query: scenario.document, variables });
  const numbered = scenario.numbered;
  if (numbered !== undefined) {
    const variants = Array.from({ length: scenario.variants }, (_, v) => text(numbered(ids, v, uniqueNumber, runTag)).split(String(uniqueNumber)));
    return { kind: 'counter', variants };
  }
  return { kind: 'list', bodies: Array.from({ length: scenario.variants }, (_, n) => text(scenario.variables(ids, n, runTag))) };
}
