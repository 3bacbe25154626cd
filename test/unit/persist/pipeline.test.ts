// Pipelined proposals (SharedLog.pipeline > 1, engine/persist/persistence.ts), against a shared log in
// memory whose answers the test gives: group N+1 runs on N's unanswered writes and is proposed chained to
// N; N refused rolls both back and runs them again, in order, once; N's outcome unknown makes N+1's
// unknown too, and neither runs again; reads never see a write not answered yet (nor, not pipelined, one whose proposal is unanswered).

import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine, LocalTail, SharedLog } from '../../../engine/index.js';
import { KIND_MUTATION, readFrames } from '../../../engine/persist/log-format.js';
import { gql, openEngine, schema, tempDir } from './engine-helpers.js';

interface Proposal {
  readonly frames: Buffer;
  readonly chained: boolean;
  answer(result: 'appended' | 'conflict' | Error): void;
}

/** A shared log in memory (message n is `messages[n - 1]`); while `hold`, each proposal waits for the test's answer. */
class HeldLog implements SharedLog {
  constructor(readonly pipeline = 4) {}
  messages: Buffer[] = [];
  position = 0;
  hold = false;
  readonly proposals: Proposal[] = [];

  async agree(tail: LocalTail): Promise<void> {
    this.position = tail.position;
    for (let seq = tail.position + 1; seq <= this.messages.length; seq++) {
      if (!tail.offer(this.messages[seq - 1] as Buffer)) return;
      this.position = seq;
    }
  }

  propose(frames: Buffer, chained = false): Promise<'appended' | 'conflict'> {
    return new Promise((resolve, reject) => {
      const answer = (result: 'appended' | 'conflict' | Error): void => {
        if (result instanceof Error) return reject(result);
        if (result === 'appended') this.position = this.messages.push(Buffer.from(frames));
        resolve(result);
      };
      this.proposals.push({ frames: Buffer.from(frames), chained, answer });
      if (!this.hold) answer('appended');
    });
  }

  /** Waits until `count` proposals were made. */
  async proposed(count: number): Promise<void> {
    for (let i = 0; this.proposals.length < count; i++) {
      if (i > 500) throw new Error(`${this.proposals.length} proposals, waited for ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** The mutation records the log took, as [LSN, ops]. */
  records(): [number, unknown][] {
    return this.messages.flatMap((message) => readFrames(message)).flatMap((record) => (record.kind === KIND_MUTATION ? [[record.lsn, record.ops] as [number, unknown]] : []));
  }

  async caughtUp(): Promise<void> {}
  async sync(): Promise<void> {}
  async close(): Promise<void> {}
}

class UnknownOutcome extends Error {
  readonly outcomeUnknown = true;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setup(pipeline = 4): Promise<{ dir: string; log: HeldLog; engine: Engine }> {
  const dir = tempDir();
  dirs.push(dir);
  const log = new HeldLog(pipeline);
  const { engine } = await openEngine(dir, { sharedLog: log, fsync: 'everysec' });
  expect((await engine.updateSchema(schema)).ok).toBe(true);
  log.proposals.length = 0;
  log.hold = true;
  return { dir, log, engine };
}

const add = (engine: Engine, name: string): Promise<any> => gql(engine, `mutation { addPerson(input: [{ name: "${name}", age: 1 }]) { numUids } }`);
/** Reads the state `add` left: runs on top of it when pipelined. */
const older = (engine: Engine, name: string): Promise<any> => gql(engine, `mutation { updatePerson(input: { filter: { name: { eq: "${name}" } }, set: { age: 2 } }) { numUids person { name age } } }`);
const people = async (engine: Engine): Promise<unknown> => (await gql(engine, '{ queryPerson(order: { asc: name }) { name age } }')).data.queryPerson;
const settledWithin = async (promise: Promise<unknown>, ms: number): Promise<boolean> => Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('pipelined proposals', () => {
  it('N+1 runs on N and is proposed before N is answered; N refused: both rolled back and run again once, in order; one copy each', async () => {
    const { dir, log, engine } = await setup();
    const first = add(engine, 'ann');
    await log.proposed(1);
    const second = older(engine, 'ann');
    await log.proposed(2);
    expect(log.proposals.map((p) => p.chained)).toEqual([false, true]);
    log.hold = false;
    // The stream's leader refuses N (another node's message came first) and so N+1, chained to it.
    log.proposals[0]?.answer('conflict');
    log.proposals[1]?.answer('conflict');
    expect(await first).toEqual({ data: { addPerson: { numUids: 1 } }, extensions: expect.anything() });
    expect(await second).toEqual({ data: { updatePerson: { numUids: 1, person: [{ name: 'ann', age: 2 }] } }, extensions: expect.anything() });
    expect(log.proposals).toHaveLength(3); // both again, in one group (they waited in order at the queue's head)
    const records = log.records();
    expect(records.map(([lsn]) => lsn)).toEqual([2, 3]);
    expect(await people(engine)).toEqual([{ name: 'ann', age: 2 }]);
    await engine.close();
    // The local log holds each once too: a restart restores the same.
    log.hold = false;
    const again = await openEngine(dir, { sharedLog: log, fsync: 'everysec' });
    expect(await people(again.engine)).toEqual([{ name: 'ann', age: 2 }]);
    expect(again.engine.lsn).toBe(3);
    await again.engine.close();
  });

  it('N appended, N+1 refused: N answered, only N+1 runs again', async () => {
    const { log, engine } = await setup();
    const first = add(engine, 'ann');
    await log.proposed(1);
    const second = add(engine, 'bob');
    await log.proposed(2);
    log.hold = false;
    log.proposals[0]?.answer('appended');
    log.proposals[1]?.answer('conflict');
    expect((await first).data).toEqual({ addPerson: { numUids: 1 } });
    expect((await second).data).toEqual({ addPerson: { numUids: 1 } });
    expect(log.proposals).toHaveLength(3);
    expect(log.records().map(([lsn]) => lsn)).toEqual([2, 3]);
    expect(await people(engine)).toEqual([
      { name: 'ann', age: 1 },
      { name: 'bob', age: 1 },
    ]);
    await engine.close();
  });

  it("N's outcome unknown: N+1's too; both answer so, neither runs again, nothing of them stays", async () => {
    const { dir, log, engine } = await setup();
    const first = add(engine, 'ann');
    await log.proposed(1);
    const second = older(engine, 'ann');
    await log.proposed(2);
    log.proposals[0]?.answer(new UnknownOutcome('cluster log unavailable: could not append within 8000 ms'));
    log.proposals[1]?.answer('conflict');
    for (const answer of [await first, await second]) {
      expect(answer.errors).toHaveLength(1);
      expect(answer.errors[0].message).toMatch(/cluster log unavailable: could not append within 8000 ms .*the outcome is unknown, read it back before writing it again/);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log.proposals).toHaveLength(2);
    log.hold = false;
    expect(await people(engine)).toEqual([]);
    expect((await add(engine, 'cid')).data).toEqual({ addPerson: { numUids: 1 } });
    expect(log.records().map(([lsn]) => lsn)).toEqual([2]);
    await engine.close();
    const again = await openEngine(dir, { sharedLog: log, fsync: 'everysec' });
    expect(await people(again.engine)).toEqual([{ name: 'cid', age: 1 }]);
    await again.engine.close();
  });

  it('a read during a pipeline waits for a point without unanswered writes (no new group starts meanwhile) and sees them all', async () => {
    const { log, engine } = await setup();
    const first = add(engine, 'ann');
    await log.proposed(1);
    const second = add(engine, 'bob');
    await log.proposed(2);
    const read = people(engine);
    expect(await settledWithin(read, 50)).toBe(false);
    const third = add(engine, 'cid'); // waits behind the read
    log.proposals[0]?.answer('appended');
    expect(await settledWithin(read, 50)).toBe(false);
    expect(log.proposals).toHaveLength(2);
    log.hold = false;
    log.proposals[1]?.answer('appended');
    expect(await read).toEqual([
      { name: 'ann', age: 1 },
      { name: 'bob', age: 1 },
    ]);
    await Promise.all([first, second, third]);
    expect(log.proposals).toHaveLength(3);
    expect(await people(engine)).toEqual([
      { name: 'ann', age: 1 },
      { name: 'bob', age: 1 },
      { name: 'cid', age: 1 },
    ]);
    await engine.close();
  });

  it('not pipelined: a read during a proposal waits for its answer; refused, the write is rolled back and never seen', async () => {
    const { log, engine } = await setup(1);
    const write = add(engine, 'ann');
    await log.proposed(1);
    const read = people(engine);
    expect(await settledWithin(read, 50)).toBe(false);
    log.proposals[0]?.answer('conflict');
    expect(await read).toEqual([]);
    await log.proposed(2); // run again once caught up
    log.proposals[1]?.answer('appended');
    expect((await write).data).toEqual({ addPerson: { numUids: 1 } });
    expect(await people(engine)).toEqual([{ name: 'ann', age: 1 }]);
    await engine.close();
  });
});
