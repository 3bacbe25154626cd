// Regexp matcher choice (issue #19 item 3): per-value match time of V8's backtracking RegExp and of
// the RE2-class matcher the regexp filter uses (engine/indexes/regexp-compile.ts, re2js), on the
// regexp filter shapes of our tests and Dgraph's, over 100,000 values; then the ReDoS pattern.
// Each shape's match count is checked to be the same for both before it is timed.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/micro/regexp-engines.js

import { compileRegexp } from '../../engine/indexes/regexp-compile.js';

const N = 100_000;
const words = ['alice', 'bob', 'carol', 'Angola', 'Introducing', 'Dgraph', 'Fact', 'Question', 'new south wales', 'nusa'];
const values = Array.from({ length: N }, (_, i) => `${words[i % 10]} k${String(i).padStart(7, '0')} ${words[(i * 7) % 10]} text`);
const shapes: [string, string][] = [
  ['^k0000123', ''], ['[Aa]ng', ''], ['^ALIC.$', 'i'], ['(Fact)|(Question)', ''], ['Dgraph.*', ''], ['n', ''], ['^ang.*', 'i'], ['wales$', ''],
];

function nsPerValue(test: (v: string) => boolean): { ns: number; hits: number } {
  let hits = 0;
  for (let i = 0; i < 2000; i++) test(values[i] as string); // warm up
  const started = process.hrtime.bigint();
  for (let round = 0; round < 3; round++) for (const v of values) if (test(v)) hits++;
  return { ns: Number(process.hrtime.bigint() - started) / (3 * N), hits: hits / 3 };
}

console.log('| shape | V8 RegExp (ns/value) | re2js (ns/value) | matches |');
console.log('|---|---|---|---|');
for (const [pattern, flags] of shapes) {
  const v8 = new RegExp(pattern, `${flags}m`);
  const re2 = compileRegexp(pattern, flags);
  const a = nsPerValue((v) => v8.test(v));
  const b = nsPerValue(re2.test);
  if (a.hits !== b.hits) throw new Error(`/${pattern}/${flags}: V8 ${a.hits} matches, re2js ${b.hits}`);
  console.log(`| \`/${pattern}/${flags}\` | ${a.ns.toFixed(0)} | ${b.ns.toFixed(0)} | ${a.hits} |`);
}
for (const n of [34, 1000, 100_000]) {
  const evil = `${'a'.repeat(n - 1)}!`;
  const started = performance.now();
  const matched = compileRegexp('aaa(a+)+$', '').test(evil);
  console.log(`/aaa(a+)+$/ on ${n} characters: re2js ${(performance.now() - started).toFixed(2)} ms (compile + match, ${matched})`);
}
