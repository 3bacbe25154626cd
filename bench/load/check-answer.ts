// Before timing: ask each contender every scenario once and compare its data with the answer computed
// from the data set. A contender that answers wrongly is marked invalid for that scenario.

import type { Dataset } from '../data/dataset.js';
import type { ContenderIds, Scenario } from '../scenarios.js';
import { dataOf, postJson } from './graphql-client.js';

/** Looks up the id the contender gave the probe post, by its @id field. */
export async function resolveIds(graphqlUrl: string, data: Dataset, slug: string): Promise<ContenderIds> {
  const reply = await postJson(graphqlUrl, { query: 'query ($slug: String!) { getPost(slug: $slug) { id } }', variables: { slug } });
  const found = (dataOf(reply) as { getPost?: { id?: unknown } | null } | null)?.getPost?.id;
  if (typeof found !== 'string') throw new Error(`cannot resolve the id of ${slug} (${data.posts.length} posts loaded?): ${reply.text.slice(0, 200)}`);
  return { postId: found };
}

/** `null` when the answer is right, else the reason it is not. */
export async function checkAnswer(graphqlUrl: string, scenario: Scenario, ids: ContenderIds, runTag: string): Promise<string | null> {
  const body = { query: scenario.document, variables: scenario.variables(ids, 0, runTag) };
  try {
    return scenario.check(dataOf(await postJson(graphqlUrl, body)), ids, 0, runTag);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function requestBody(scenario: Scenario, ids: ContenderIds, runTag: string): string | ((n: number) => string) {
  if (!scenario.isMutation) return JSON.stringify({ query: scenario.document, variables: scenario.variables(ids, 0, runTag) });
  return (n) => JSON.stringify({ query: scenario.document, variables: scenario.variables(ids, n + 1, runTag) });
}
