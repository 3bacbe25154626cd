// Would a snapshot that stores the token indexes' postings restore faster than tokenising every value
// again? On one build's dist and a data directory with a snapshot (snapshot-phases.ts makes one): the
// store restored without indexes, then per token index the back-fill (tokenising) against its postings
// exported as [tokens, counts, concatenated ids] through the snapshot codec and rebuilt into a token →
// posting map. CPU ms of each and the postings' encoded size. Fulltext too: flexsearch's `map` (token →
// [id array]) exported the same way and rebuilt as that map plus the register's per-node array counts
// (../../engine/indexes/flexsearch-postings.ts), i.e. a restore through the internals it already reads.
// Run: taskset -c 0 node --expose-gc dist/bench/micro/postings-restore.js <abs dist> <data dir>

import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as FileIoModule from '../../engine/persist/file-io.js';
import type * as SnapshotFileModule from '../../engine/persist/snapshot-file.js';
import type * as CodecModule from '../../engine/persist/msgpack-codec.js';
import type * as GraphStoreModule from '../../engine/store/graph-store.js';
import type * as PostingListModule from '../../engine/indexes/postings/posting-list.js';
import type { Posting } from '../../engine/indexes/postings/posting.js';

const [distArg, dir] = process.argv.slice(2);
if (distArg === undefined || dir === undefined) throw new Error('usage: postings-restore.js <dist> <data dir>');
const from = (path: string): string => resolve(distArg, path);
const { nodeFileIo } = (await import(from('engine/persist/file-io.js'))) as typeof FileIoModule;
const { readSnapshotFile } = (await import(from('engine/persist/snapshot-file.js'))) as typeof SnapshotFileModule;
const { encode, decode } = (await import(from('engine/persist/msgpack-codec.js'))) as typeof CodecModule;
const { GraphStore } = (await import(from('engine/store/graph-store.js'))) as typeof GraphStoreModule;
const { PostingList } = (await import(from('engine/indexes/postings/posting-list.js'))) as typeof PostingListModule;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const lsn = Math.max(...readdirSync(dir).filter((n) => /^snap-\d+\.msgpack$/.test(n)).map((n) => Number(/\d+/.exec(n)?.[0])));
const snap = readSnapshotFile(nodeFileIo, dir, lsn).content.store;
const store = new GraphStore();
store.importSnapshot({ ...snap, scalars: snap.scalars.map((c) => ({ ...c, indexKinds: [] })) });

const cpu = <T>(fn: () => T): [T, number] => {
  const c = process.cpuUsage();
  const result = fn();
  const used = process.cpuUsage(c);
  return [result, (used.user + used.system) / 1000];
};
const sizeOf = (p: Posting): number => (typeof p === 'number' ? 1 : Array.isArray(p) ? p.length : (p as PostingListModule.PostingList).size);
const idsOf = (p: Posting): readonly number[] => (typeof p === 'number' ? [p] : Array.isArray(p) ? p : (p as PostingListModule.PostingList).toArray());

for (const col of snap.scalars) {
  for (const kind of col.indexKinds.filter((k) => k === 'ngram' || k === 'trigram' || k === 'term' || k === 'fulltext')) {
    gc();
    const [index, tokenise] = cpu(() => store.scalar(col.predicate).ensureIndex(kind));
    // The postings' map (TokenPostings, private; flexsearch's `map` for fulltext): what a stored index would be read into.
    const inner = (index as unknown as { store: { map?: Map<string, Posting>; flex?: { map: Map<string, number[][]> } } }).store;
    const map = inner.map ?? new Map([...(inner.flex?.map ?? [])].map(([token, slots]) => [token, slots[0] ?? []]));
    const [bytes, exported] = cpu(() => {
      const tokens: string[] = [];
      const counts = new Int32Array(map.size);
      let total = 0;
      for (const [token, posting] of map) {
        counts[tokens.length] = sizeOf(posting);
        total += sizeOf(posting);
        tokens.push(token);
      }
      const ids = new Int32Array(total);
      let at = 0;
      for (const posting of map.values()) {
        ids.set(idsOf(posting), at);
        at += sizeOf(posting);
      }
      return encode({ tokens, counts, ids });
    });
    gc();
    const smallMax = kind === 'trigram' ? 1 : 32; // as each index's TokenPostings keeps small lists
    const [rebuilt, imported] = cpu(() => {
      const { tokens, counts, ids } = decode(bytes) as { tokens: string[]; counts: Int32Array; ids: Int32Array };
      const out = new Map<string, Posting>();
      let at = 0;
      tokens.forEach((token, i) => {
        const n = counts[i] as number;
        const list = Array.from(ids.subarray(at, at + n));
        out.set(token, n === 1 ? (list[0] as number) : n <= smallMax ? list : new PostingList(list));
        at += n;
      });
      return out;
    });
    const [, flexRebuilt] = cpu(() => {
      if (kind !== 'fulltext') return 0;
      const { tokens, counts, ids } = decode(bytes) as { tokens: string[]; counts: Int32Array; ids: Int32Array };
      const out = new Map<string, number[][]>();
      const perNode = new Int32Array(snap.nextId);
      let at = 0;
      tokens.forEach((token, i) => {
        const n = counts[i] as number;
        const list = Array.from(ids.subarray(at, at + n));
        for (const id of list) perNode[id] = (perNode[id] ?? 0) + 1;
        out.set(token, [list]);
        at += n;
      });
      return out.size;
    });
    console.log(
      `${col.predicate} ${kind}: tokens ${map.size}, entries ${index.entryCount}, back-fill (tokenise) ${tokenise.toFixed(0)} ms CPU, ` +
        `export + encode ${exported.toFixed(0)} ms, ${(bytes.length / 1e6).toFixed(1)} MB, decode + rebuild ${(kind === 'fulltext' ? flexRebuilt : imported).toFixed(0)} ms CPU (${rebuilt.size} tokens)`,
    );
  }
}
