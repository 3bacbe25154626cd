// graphql-js wording → Dgraph/gqlparser wording for request errors (REFERENCE §10), one table.

const rewrites: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  // gqlparser's validator rules (validator/rules/*.go) where graphql-js words them otherwise.
  [/^Unknown directive "@([^"]*)"\.$/s, (m) => `Unknown directive "${m[1] ?? ''}".`],
  [/^Directive "@([^"]*)" may not be used on (\w+)\.$/s, (m) => `Directive "${m[1] ?? ''}" may not be used on ${m[2] ?? ''}.`],
  [/^The directive "@([^"]*)" can only be used once at this location\.$/s, (m) => `The directive "${m[1] ?? ''}" can only be used once at this location.`],
  [/^(Field|Directive) ("[^"]*" argument "[^"]*" of type "[^"]*") is required, but it was not provided\.$/s, (m) => `${m[1] ?? ''} ${m[2] ?? ''} is required but not provided.`],
  [/^Field "([^".]*)\.([^"]*)" of required type "([^"]*)" was not provided\.$/s, (m) => `Field ${m[1] ?? ''}.${m[2] ?? ''} of required type ${m[3] ?? ''} was not provided.`],
  [/^Field "([^"]*)" is not defined by type "([^"]*)"\.(?: Did you mean (.*)\?)?$/s, (m) => `Field "${m[1] ?? ''}" is not defined by type ${m[2] ?? ''}.${m[3] === undefined ? '' : ` Did you mean ${m[3].replaceAll('"', '')}?`}`],
  [/^Value "([^"]*)" does not exist in "([^"]*)" enum\.(?: Did you mean the enum value (.*)\?)?$/s, (m) => `Expected type ${m[2] ?? ''}, found ${m[1] ?? ''}.${m[3] === undefined ? '' : ` Did you mean the enum value ${m[3].replaceAll('"', '')}?`}`],
  [/^There can be only one variable named "\$([^"]*)"\.$/s, (m) => `There can be only one variable named "${m[1] ?? ''}".`],
  [/^Cannot spread fragment "([^"]*)" within itself via (.*)\.$/s, (m) => `Cannot spread fragment "${m[1] ?? ''}" within itself via ${(m[2] ?? '').replaceAll('"', '')}.`],
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

/**
 * gqlparser reports one location for an undefined variable and for the extra fields of a subscription,
 * the repeated directive or variable only, and string values from inside the quote.
 */
export function toDgraphLocations(message: string, locations: readonly Location[] | undefined): Location[] | undefined {
  if (locations === undefined) return undefined;
  if (/^Variable "\$\w+" is not defined\.$|^(?:Anonymous Subscription|Subscription "[^"]*") must select only one top level field\.$/.test(message)) {
    return locations.slice(0, 1).map((l) => ({ ...l }));
  }
  if (/^The directive "[^"]*" can only be used once at this location\.$/.test(message)) return locations.slice(-1).map((l) => ({ ...l }));
  // gqlparser points at the repeated definition's `$`, graphql-js at every definition's name.
  if (/^There can be only one variable named "[^"]*"\.$/.test(message)) return locations.slice(-1).map((l) => ({ line: l.line, column: l.column - 1 }));
  if (/^Expected type [\w![\]]+, found ".*"\.(?: Did you mean .*)?$/s.test(message)) return locations.map((l) => ({ line: l.line, column: l.column + 1 }));
  return locations.map((l) => ({ ...l }));
}
