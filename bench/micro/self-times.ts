// A CPU profile's heaviest functions by self time (node:inspector's Profiler output), printed: what
// snapshot-phases.ts and shape-profile.ts attribute their costs with.

export interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }; readonly children?: readonly number[] | undefined }[];
  readonly samples?: readonly number[] | undefined;
  readonly timeDeltas?: readonly number[] | undefined;
}

export function printSelfTimes(name: string, profile: CpuProfile): void {
  const frameOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let total = 0;
  for (let i = 0; i < samples.length; i++) {
    const f = frameOf.get(samples[i] as number);
    const key = f === undefined ? '?' : `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules)\//, '')}:${f.lineNumber + 1}`;
    const ms = (deltas[i] ?? 0) / 1000;
    self.set(key, (self.get(key) ?? 0) + ms);
    total += ms;
  }
  console.log(`\n${name}: ${total.toFixed(0)} ms sampled; heaviest by self time:`);
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${key}`);
}
