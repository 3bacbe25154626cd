// graphql-js wording → Dgraph/gqlparser wording for request errors (REFERENCE §10), one table.

const rewrites: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [/^Int cannot represent non 32-bit signed integer value: (.*)$/s, (m) => `Out of range value '${m[1] ?? ''}', for type \`Int\``],
  [/^(?:Float|Int|Boolean|String|ID) cannot represent (?:a )?non[- ].*? value: (.*)$/s, (m) => `Expected type ${typeOf(m[0])}, found ${m[1] ?? ''}.`],
  [/^Expected value of type "[^"]+", found .*?; (.*)$/s, (m) => m[1] ?? ''],
  [/^Variable "\$(\w+)" got invalid value .*?; (?:Int|Float|String|Boolean|ID) cannot represent .*$/s, () => ''],
];

function typeOf(message: string): string {
  return message.split(' ')[0] ?? '';
}

export function toDgraphMessage(message: string): string {
  for (const [pattern, rewrite] of rewrites) {
    const match = pattern.exec(message);
    if (match !== null) {
      const out = rewrite(match);
      if (out !== '') return out;
    }
  }
  return message;
}

interface Location {
  readonly line: number;
  readonly column: number;
}

/** gqlparser reports one location for an undefined variable, and string values from inside the quote. */
export function toDgraphLocations(message: string, locations: readonly Location[] | undefined): Location[] | undefined {
  if (locations === undefined) return undefined;
  if (/^Variable "\$\w+" is not defined\.$/.test(message)) return locations.slice(0, 1).map((l) => ({ ...l }));
  if (/^Expected type \w+, found ".*"\.$/s.test(message)) return locations.map((l) => ({ line: l.line, column: l.column + 1 }));
  return locations.map((l) => ({ ...l }));
}
