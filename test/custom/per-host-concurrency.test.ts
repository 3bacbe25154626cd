// One slow upstream must not starve the others: with --custom-max-concurrency-per-host, calls to a host
// that hangs hold at most that many of the process-wide slots, and a field on another upstream is answered
// at once. Against the real server, a hanging upstream and a fast one on another port.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, type MockUpstream } from './helpers/mock-upstream.js';
import { startRig, uploaded, type Rig } from './helpers/service.js';

let rig: Rig;
let fast: MockUpstream;
let defaults: Rig;

const schemaOn = (rig: Rig): string => `type Item {
  id: ID!
  title: String
  slow: String @custom(http: { url: "${rig.mock.url}/fault/hang", method: "POST", body: "{ id: $id }" })
  quick: String @custom(http: { url: "${fast.url}/userName", method: "POST", body: "{ uid: $id }" })
}`;

beforeAll(async () => {
  [rig, defaults, fast] = await Promise.all([
    // The caps are per thread (README, Threads): one thread, so every call counts against the same ones.
    startRig(['--custom-max-concurrency', '4', '--custom-max-concurrency-per-host', '2', '--custom-timeout-ms', '3000', '--custom-workers', '0', '--threads', '1']),
    startRig(['--custom-timeout-ms', '3000', '--custom-workers', '0', '--threads', '1']),
    startMockUpstream(),
  ]);
  for (const r of [rig, defaults]) {
    expect(await r.upload(schemaOn(r))).toEqual(uploaded);
    await r.gql('mutation { addItem(input: [{ title: "a" }]) { numUids } }');
  }
});
afterAll(async () => {
  await Promise.all([rig?.stop(), defaults?.stop(), fast?.close()]);
});

/** Waits until `count` calls hang at the rig's upstream, then a little longer for any further ones. */
async function hangingSettles(r: Rig, count: number): Promise<void> {
  const until = Date.now() + 3_000;
  while (r.mock.hanging() < count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
}

describe('--custom-max-concurrency-per-host', () => {
  it('a slow host holds at most its share; a field on another host is answered promptly', async () => {
    // Six queries on the hanging upstream: without a per-host cap they fill all four process-wide slots.
    const slow = Array.from({ length: 6 }, () => rig.gql('query { queryItem { slow } }'));
    await hangingSettles(rig, 2);
    expect(rig.mock.hanging()).toBe(2);
    const started = Date.now();
    const answer = await rig.gql('query { queryItem { id quick } }');
    const ms = Date.now() - started;
    expect(answer.errors).toBeUndefined();
    expect(answer.data.queryItem[0].quick).toBe(`uname-${String(answer.data.queryItem[0].id)}`);
    expect(ms).toBeLessThan(1_500);
    const slowAnswers = await Promise.all(slow); // every slow one times out in the end, with its error
    for (const a of slowAnswers) expect(a.data.queryItem).toEqual([{ slow: null }]);
  }, 30_000);
});

describe('the default caps (64 process-wide, 48 per host)', () => {
  it('one upstream gets 48 calls in flight (a lone host is not throttled to a small share), the other 16 slots stay free for other hosts', async () => {
    const slow = Array.from({ length: 60 }, () => defaults.gql('query { queryItem { slow } }'));
    await hangingSettles(defaults, 48);
    expect(defaults.mock.hanging()).toBe(48);
    const started = Date.now();
    const answer = await defaults.gql('query { queryItem { id quick } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data.queryItem[0].quick).toBe(`uname-${String(answer.data.queryItem[0].id)}`);
    expect(Date.now() - started).toBeLessThan(1_500);
    const slowAnswers = await Promise.all(slow);
    for (const a of slowAnswers) expect(a.data.queryItem).toEqual([{ slow: null }]);
  }, 30_000);
});
