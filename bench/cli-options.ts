// The suite's command line: --quick, --scenario <a,b>, --contender <a,b>, --duration <s>,
// --warmup <s>, --connections <n>, --rate <req/s>, --posts <n>, --load autocannon|wrk, --no-micro, --no-subscriptions, --no-readme.

import type { LoadGenerator } from './load/autocannon-run.js';

export interface SuiteOptions {
  readonly quick: boolean;
  readonly scenarios: readonly string[] | null;
  readonly contenders: readonly string[] | null;
  readonly durationS: number;
  readonly warmupS: number;
  readonly connections: number;
  readonly fixedRate: number;
  readonly posts: number;
  readonly authors: number;
  readonly micro: boolean;
  /** The subscriptions fan-out benchmark (subscriptions.ts). */
  readonly subscriptions: boolean;
  readonly writeReadme: boolean;
  /** The load generator (load/load-runner.ts). */
  readonly load: LoadGenerator;
}

export const usage = `usage: node dist/bench/run.js [--quick] [--scenario get-by-id,filtered-list,...] [--contender service,mercurius,...]
  [--duration <s>] [--warmup <s>] [--connections <n>] [--rate <req/s>] [--posts <n>] [--load autocannon|wrk] [--no-micro] [--no-subscriptions] [--no-readme]`;

export function parseOptions(argv: readonly string[]): SuiteOptions {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const found = argv[i + 1];
    if (found === undefined || found.startsWith('--')) throw new Error(`${flag} needs a value\n${usage}`);
    return found;
  };
  const number = (flag: string, fallback: number): number => {
    const raw = value(flag);
    const parsed = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${flag} must be a positive number\n${usage}`);
    return parsed;
  };
  const list = (flag: string): string[] | null => value(flag)?.split(',').map((s) => s.trim()).filter((s) => s !== '') ?? null;
  const known = new Set(['--quick', '--no-micro', '--no-subscriptions', '--no-readme', '--scenario', '--contender', '--duration', '--warmup', '--connections', '--rate', '--posts', '--load']);
  for (const arg of argv) if (arg.startsWith('--') && !known.has(arg)) throw new Error(`unknown flag ${arg}\n${usage}`);
  const quick = argv.includes('--quick');
  const scenarios = list('--scenario');
  const contenders = list('--contender');
  const posts = number('--posts', 10_000);
  const load = value('--load') ?? 'autocannon';
  if (load !== 'autocannon' && load !== 'wrk') throw new Error(`--load must be autocannon or wrk\n${usage}`);
  return {
    quick,
    scenarios,
    contenders,
    durationS: number('--duration', quick ? 1.2 : 10),
    warmupS: number('--warmup', quick ? 0.4 : 3),
    connections: number('--connections', 50),
    fixedRate: number('--rate', 2_000),
    posts,
    authors: Math.max(10, Math.round(posts / 10)),
    micro: !argv.includes('--no-micro'),
    subscriptions: !argv.includes('--no-subscriptions'),
    // A partial run, or one on the other load generator, must not replace the published figures.
    writeReadme: !argv.includes('--no-readme') && scenarios === null && contenders === null && load === 'autocannon',
    load,
  };
}
