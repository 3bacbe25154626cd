// A strict parser of the Prometheus text format (0.0.4) for tests: every sample must belong to a family
// declared by # HELP and # TYPE before it, label values must be quoted and escaped, values numbers.
// prom-client has no parser; anything the format does not allow throws, so a malformed scrape fails.

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  readonly samples: Sample[];
}

const types = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const label = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/;

function parseValue(text: string, line: string): number {
  // Prometheus reads values with Go's ParseFloat: NaN and Inf in any case (prom-client writes `Nan`).
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a number in: ${line}`);
  return Number(text);
}

function familyOf(families: Map<string, Family>, name: string): Family | undefined {
  const direct = families.get(name);
  if (direct !== undefined) return direct;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  const family = families.get(base);
  return family !== undefined && (family.type === 'histogram' || family.type === 'summary') ? family : undefined;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  if (!text.endsWith('\n')) throw new Error('the text does not end with a newline');
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const help = /^# HELP (\S+) (.*)$/.exec(line);
    if (help !== null) {
      const [, name, about] = help as unknown as [string, string, string];
      if (!metricName.test(name) || helps.has(name)) throw new Error(`bad or repeated HELP: ${line}`);
      helps.set(name, about);
      continue;
    }
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type !== null) {
      const [, name, kind] = type as unknown as [string, string, string];
      const about = helps.get(name);
      if (about === undefined || !types.has(kind) || families.has(name)) throw new Error(`TYPE without HELP, unknown or repeated: ${line}`);
      families.set(name, { help: about, type: kind as Family['type'], samples: [] });
      continue;
    }
    if (line.startsWith('#')) throw new Error(`unexpected comment: ${line}`);
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (sample === null) throw new Error(`not a sample: ${line}`);
    const [, name, labelText, valueText] = sample as unknown as [string, string, string | undefined, string];
    const labels: Record<string, string> = {};
    let rest = labelText ?? '';
    while (rest !== '') {
      const match = label.exec(rest);
      if (match === null) throw new Error(`bad labels in: ${line}`);
      const [whole, key, raw] = match as unknown as [string, string, string];
      if (key in labels) throw new Error(`repeated label in: ${line}`);
      labels[key] = raw.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(whole.length);
    }
    const family = familyOf(families, name);
    if (family === undefined) throw new Error(`sample of an undeclared family: ${line}`);
    family.samples.push({ name, labels, value: parseValue(valueText, line) });
  }
  return families;
}

/** The value of the one sample named `name` whose labels are exactly `labels`; throws if there is none. */
export function sampleValue(families: ReadonlyMap<string, Family>, name: string, labels: Readonly<Record<string, string>> = {}): number {
  const family = familyOf(families as Map<string, Family>, name);
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const found = family?.samples.filter((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === wanted) ?? [];
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${wanted}`);
  return (found[0] as Sample).value;
}
