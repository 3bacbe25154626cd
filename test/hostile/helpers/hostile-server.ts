// One server process per hostile test file, with a small schema and a product that reviews itself
// through a review (so nested selections have data at every level), and the checks every attack shares.

import { expect } from 'vitest';
import { postGraphql } from '../../integration/helpers/http.js';
import { startWithSchema, type ServerProcess, type StartOptions } from '../../integration/helpers/server-process.js';
import { rssOf, type WatchdogReport } from './watchdog.js';

export const hostileSchema = `
type Product { productID: ID!  name: String @search(by: [hash, term])  reviews: [Review] @hasInverse(field: about) }
type Review { id: ID!  about: Product  comment: String @search(by: [fulltext]) }
`;

/** Starts the server, deploys `schema` and adds product "x" with one review "r" about it. */
export async function startHostile(options: StartOptions = {}, schema = hostileSchema): Promise<ServerProcess> {
  const server = await startWithSchema(schema, options);
  const seeded = await postGraphql(server.url, { query: 'mutation { addProduct(input: [{ name: "x", reviews: [{ comment: "r" }] }]) { numUids } }' });
  expect(seeded.json()).toMatchObject({ data: { addProduct: { numUids: 2 } } });
  return server;
}

/** The simple query beside the attack was always answered, right, and within 100 ms. */
export function expectCalm(report: WatchdogReport): void {
  expect(report.wrong).toEqual([]);
  expect(report.answered).toBeGreaterThan(0);
  expect(report.worstMs).toBeLessThan(100);
}

/** Product "x" seen through `levels` review → about hops (the data startHostile adds). */
export function throughReviews(levels: number): unknown {
  return levels === 0 ? { name: 'x' } : { reviews: [{ about: throughReviews(levels - 1) }] };
}

/** RSS after the attack (and a GC chance) stays within `slackBytes` of the baseline. */
export async function expectRssNear(server: ServerProcess, baseline: number, slackBytes = 64 * 1024 * 1024): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('server has no pid');
  expect(rssOf(pid) - baseline).toBeLessThan(slackBytes);
}
