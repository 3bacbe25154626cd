// Turns Dgraph's `/pattern/flags` pieces into a JS RegExp, with the RE2 rules Dgraph applies:
// only the `i` flag; no look-around or back-references; RE2's leading `(?i)`, `(?P<name>`, `\A`
// and `\z` are translated. Without `i` the pattern compiles in Unicode mode (as RE2 matches code
// points) when it is valid there; with `i` it compiles in non-Unicode mode, whose case folding
// ./regexp-trigram-query.ts reproduces exactly when it expands literals into case variants.

export class InvalidRegexpError extends Error {
  constructor(pattern: string, reason: string) {
    super(`error parsing regexp: ${reason}: \`${pattern}\``);
    this.name = 'InvalidRegexpError';
  }
}

export interface CompiledRegexp {
  readonly regexp: RegExp;
  /** The pattern in JS syntax (after the RE2 translations). */
  readonly source: string;
  readonly ignoreCase: boolean;
}

const UNSUPPORTED = /\(\?<?[=!]/;

function translate(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return out + ch;
      if (next === 'A') out += '^';
      else if (next === 'z') out += '$';
      else if (next >= '1' && next <= '9') throw new InvalidRegexpError(pattern, 'invalid escape sequence');
      else if (next === 'k' && pattern[i + 2] === '<') throw new InvalidRegexpError(pattern, 'invalid escape sequence');
      else out += ch + next;
      i++;
    } else if (ch === '(' && pattern.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
    } else {
      out += ch;
    }
  }
  return out;
}

export function compileRegexp(pattern: string, flags: string): CompiledRegexp {
  let ignoreCase = false;
  for (const f of flags) {
    if (f === 'i') ignoreCase = true;
    else throw new InvalidRegexpError(`/${pattern}/${flags}`, `unsupported flag ${JSON.stringify(f)}`);
  }
  let body = pattern;
  if (body.startsWith('(?i)')) {
    ignoreCase = true;
    body = body.slice(4);
  }
  if (UNSUPPORTED.test(body.replace(/\\./g, ''))) {
    throw new InvalidRegexpError(pattern, 'invalid or unsupported Perl syntax');
  }
  const source = translate(body);
  if (!ignoreCase) {
    try {
      return { regexp: new RegExp(source, 'u'), source, ignoreCase };
    } catch {
      // not valid in Unicode mode (e.g. a lone `{`): fall through to the legacy syntax
    }
  }
  try {
    return { regexp: new RegExp(source, ignoreCase ? 'i' : ''), source, ignoreCase };
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : String(e);
    throw new InvalidRegexpError(pattern, reason.toLowerCase());
  }
}
