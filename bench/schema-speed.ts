// Schema upload speed (issue #3): deploy a schema and answer the first query against it.
// Cases: Dgraph's e2e "normal" schema (431 lines) and a synthetic schema with 250 indexed fields.
// Run: `npm run build && node dist/bench/schema-speed.js [--rounds N]`. Prints JSON lines and a table.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Engine } from '../engine/index.js';

interface Case {
  readonly name: string;
  readonly sdl: string;
  readonly firstQuery: string;
  readonly targetMs: number;
}

const searchKinds = ['hash', 'exact', 'term', 'fulltext', 'trigram'] as const;

/** 25 types × 10 indexed fields of mixed kinds = 250 indexed fields. */
function wideSchema(): string {
  const types: string[] = [];
  for (let t = 0; t < 25; t++) {
    const fields = [`  id: ID!`];
    for (let f = 0; f < 10; f++) {
      if (f % 3 === 0) fields.push(`  n${f}: Int @search`);
      else fields.push(`  s${f}: String @search(by: [${searchKinds[(t + f) % searchKinds.length]}])`);
    }
    if (t > 0) fields.push(`  parent: T${t - 1}`);
    types.push(`type T${t} {\n${fields.join('\n')}\n}`);
  }
  return types.join('\n\n');
}

function cases(): Case[] {
  const list: Case[] = [];
  try {
    const normal = readFileSync(new URL('../../../shared/dgraph-testdata/e2e/normal/schema.graphql', import.meta.url), 'utf8');
    list.push({ name: 'e2e/normal (431 lines)', sdl: normal, firstQuery: '{ queryAuthor(first: 10) { name dob } }', targetMs: 100 });
  } catch {
    console.error('skipping e2e/normal: ../shared/dgraph-testdata not found');
  }
  list.push({ name: '250 indexed fields', sdl: wideSchema(), firstQuery: '{ queryT5(filter: { n0: { ge: 1 } }, first: 5) { id n0 } }', targetMs: 500 });
  return list;
}

async function measure(c: Case): Promise<number> {
  // The e2e schema has @lambda fields, which need a lambda URL configured (never called here).
  const engine = await Engine.open({
    dataDir: '',
    maxQueryTokens: 50_000,
    maxQueryDepth: 200,
    debug: false,
    lambdaUrl: 'http://127.0.0.1:8686/graphql-worker',
  });
  const start = performance.now();
  const result = await engine.updateSchema(c.sdl);
  if (!result.ok) throw new Error(`${c.name}: upload failed: ${JSON.stringify(result.errors).slice(0, 300)}`);
  const response = await engine.execute({ method: 'POST', query: c.firstQuery, headers: {} });
  const elapsed = performance.now() - start;
  const body = JSON.parse(response.body) as { errors?: unknown; data?: unknown };
  if (body.errors !== undefined || body.data === undefined) throw new Error(`${c.name}: first query failed: ${response.body}`);
  await engine.close();
  return elapsed;
}

async function main(): Promise<void> {
  const roundsFlag = process.argv.indexOf('--rounds');
  const rounds = roundsFlag >= 0 ? Number(process.argv[roundsFlag + 1]) : 9;
  const rows: string[] = [];
  for (const c of cases()) {
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) times.push(await measure(c));
    const cold = times[0] as number;
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    const verdict = cold <= c.targetMs ? 'PASS' : 'MISS';
    console.log(JSON.stringify({ case: c.name, coldMs: round(cold), medianMs: round(median), targetMs: c.targetMs, verdict }));
    rows.push(`| ${c.name} | ${round(cold)} | ${round(median)} | < ${c.targetMs} | ${verdict} |`);
  }
  console.log(['| schema | first upload + query in a fresh process (ms) | median of rounds (ms) | target (ms) | |', '|---|---|---|---|---|', ...rows].join('\n'));
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

await main();
