// A CPU profile's samples by stage of a write (issue #20's add): each sample goes to the first stage
// whose rule matches a frame on its stack, leaf first (so a token index's work under the store's write
// counts as the index's). Stages as bench/README.md's write tables name them; `--from`/`--to` (seconds
// since the profile's start) keep one window, e.g. a server's wrk run inside its whole-process profile.
// Run: node dist/bench/micro/profile-stages.js <file.cpuprofile> [--from s] [--to s]

import { readFileSync } from 'node:fs';
import type { CpuProfile } from './self-times.js';

type ProfileNode = CpuProfile['nodes'][number];

type Rule = readonly [stage: string, matches: (fn: string, url: string) => boolean];

const rules: readonly Rule[] = [
  ['token indexes', (_f, u) => /indexes\/(token-index|flexsearch|term-|fulltext-|ngram|trigram|postings\/token)|flexsearch/.test(u)],
  ['value indexes', (_f, u) => /engine\/indexes\//.test(u)],
  ['log record (redo ops, msgpack, CRC, frame)', (f, u) => /msgpackr|log-format|msgpack-codec|redo-frame|checksum/.test(u) || f === 'redoSince' || f === 'redoOf' || f === 'crc32'],
  ['log write, group commit, queue', (_f, u) => /persist\/(persistence|log-writer|file-io)/.test(u)],
  ['xid checks and lookups', (f, u) => /exec\/xid-/.test(u) || f === '#findExisting'],
  ['store (columns, arena, edges, types, undo)', (_f, u) => /engine\/store\//.test(u)],
  ['payload read-back', (f, u) => f === 'payload' || /exec\/read-objects/.test(u)],
  ['answer envelope (serialize, JSON, request id)', (f, u) => /serialize-response|json-writer/.test(u) || f === 'mutateDurably' || f === 'randomUUID'],
  ['request (body parse, document, coercion, prepare)', (_f, u) => /engine\/request\/|gqlparser|\/graphql\//.test(u)],
  ['mutation executor (plan, node writer)', (_f, u) => /engine\/exec\//.test(u)],
  ['HTTP edge (server/, uWS)', (_f, u) => /\/server\/|uws|uWebSockets/.test(u)],
  ['GC', (f) => f === '(garbage collector)'],
  ['idle, program', (f) => f === '(program)' || f === '(idle)'],
];
const rest = 'the rest (engine facade, promises, timers, harness)';

const argv = process.argv.slice(2);
const flag = (name: string): number | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : undefined;
};
const [file] = argv;
if (file === undefined) throw new Error('usage: profile-stages.js <file.cpuprofile> [--from s] [--to s]');
const from = (flag('--from') ?? 0) * 1e6;
const to = (flag('--to') ?? Infinity) * 1e6;

const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** Samples per leaf node within the window. */
const leaves = new Map<number, number>();
let t = 0;
(profile.samples ?? []).forEach((id, i) => {
  t += profile.timeDeltas?.[i] ?? 0;
  if (t >= from && t < to) leaves.set(id, (leaves.get(id) ?? 0) + 1);
});

const stageOf = (leaf: number): string => {
  for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
    const frame = (byId.get(id) as ProfileNode).callFrame;
    const rule = rules.find(([, matches]) => matches(frame.functionName, frame.url));
    if (rule !== undefined) return rule[0];
  }
  return rest;
};
const counts = new Map<string, number>();
let total = 0;
for (const [leaf, n] of leaves) {
  const stage = stageOf(leaf);
  counts.set(stage, (counts.get(stage) ?? 0) + n);
  total += n;
}
console.log(`${total} samples`);
for (const [stage, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${((100 * n) / total).toFixed(1).padStart(5)}%  ${stage}`);
