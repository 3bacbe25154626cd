// The syntax error Go's encoding/json reports for text that is not JSON (its scanner's state machine,
// written out here): Dgraph passes these texts on for bodies and tokens it cannot decode, e.g.
// `invalid character 'o' in literal null (expecting 'u')`, `unexpected end of JSON input`.

type Step = (c: number) => void;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Go's quoteChar: a byte as strconv.Quote shows the rune of that value, in single quotes. */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (named[c] !== undefined) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // U+0080–U+00A0 and the soft hyphen are not printable for strconv.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

class SyntaxFound extends Error {}

/** Undefined when `bytes` is one JSON value (Go's checkValid), else Go's error text. */
export function goJsonSyntaxError(bytes: Uint8Array | string): string | undefined {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const stack: ('key' | 'value' | 'array')[] = [];
  let endTop = false;
  const fail = (c: number, context: string): never => {
    throw new SyntaxFound(`invalid character ${goQuoteChar(c)} ${context}`);
  };
  let step: Step;

  const endValue: Step = (c) => {
    const n = stack.length;
    if (n === 0) {
      step = endTopStep;
      endTop = true;
      return endTopStep(c);
    }
    if (isSpace(c)) {
      step = endValue;
      return;
    }
    const top = stack[n - 1];
    if (top === 'key') {
      if (c === 0x3a) {
        stack[n - 1] = 'value';
        step = beginValue;
        return;
      }
      return fail(c, 'after object key');
    }
    if (top === 'value') {
      if (c === 0x2c) {
        stack[n - 1] = 'key';
        step = beginString;
        return;
      }
      if (c === 0x7d) return pop();
      return fail(c, 'after object key:value pair');
    }
    if (c === 0x2c) {
      step = beginValue;
      return;
    }
    if (c === 0x5d) return pop();
    return fail(c, 'after array element');
  };
  const pop = (): void => {
    stack.pop();
    if (stack.length === 0) {
      step = endTopStep;
      endTop = true;
    } else step = endValue;
  };
  const endTopStep: Step = (c) => {
    if (!isSpace(c)) fail(c, 'after top-level value');
  };
  const beginValue: Step = (c) => {
    if (isSpace(c)) return;
    switch (c) {
      case 0x7b:
        stack.push('key');
        step = beginStringOrEmpty;
        return;
      case 0x5b:
        stack.push('array');
        step = beginValueOrEmpty;
        return;
      case 0x22:
        step = inString;
        return;
      case 0x2d:
        step = neg;
        return;
      case 0x30:
        step = zero;
        return;
      case 0x74:
        step = literal('true', 1);
        return;
      case 0x66:
        step = literal('false', 1);
        return;
      case 0x6e:
        step = literal('null', 1);
        return;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = one;
      return;
    }
    fail(c, 'looking for beginning of value');
  };
  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x5d) return endValue(c);
    beginValue(c);
  };
  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x7d) {
      stack[stack.length - 1] = 'value';
      return endValue(c);
    }
    beginString(c);
  };
  const beginString: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x22) {
      step = inString;
      return;
    }
    fail(c, 'looking for beginning of object key string');
  };
  const inString: Step = (c) => {
    if (c === 0x22) step = endValue;
    else if (c === 0x5c) step = inEscape;
    else if (c < 0x20) fail(c, 'in string literal');
  };
  const inEscape: Step = (c) => {
    if ('bfnrt\\/"'.includes(String.fromCharCode(c))) step = inString;
    else if (c === 0x75) step = hex(4);
    else fail(c, 'in string escape code');
  };
  const hex = (left: number): Step => (c) => {
    if (!isHex(c)) fail(c, 'in \\u hexadecimal character escape');
    step = left === 1 ? inString : hex(left - 1);
  };
  const neg: Step = (c) => {
    if (c === 0x30) step = zero;
    else if (c >= 0x31 && c <= 0x39) step = one;
    else fail(c, 'in numeric literal');
  };
  const one: Step = (c) => {
    if (isDigit(c)) return;
    zero(c);
  };
  const zero: Step = (c) => {
    if (c === 0x2e) step = dot;
    else if (c === 0x65 || c === 0x45) step = exponent;
    else endValue(c);
  };
  const dot: Step = (c) => {
    if (isDigit(c)) step = dotDigits;
    else fail(c, 'after decimal point in numeric literal');
  };
  const dotDigits: Step = (c) => {
    if (isDigit(c)) return;
    if (c === 0x65 || c === 0x45) step = exponent;
    else endValue(c);
  };
  const exponent: Step = (c) => {
    if (c === 0x2b || c === 0x2d) step = exponentSign;
    else exponentSign(c);
  };
  const exponentSign: Step = (c) => {
    if (isDigit(c)) step = exponentDigits;
    else fail(c, 'in exponent of numeric literal');
  };
  const exponentDigits: Step = (c) => {
    if (!isDigit(c)) endValue(c);
  };
  const literal = (word: string, at: number): Step => (c) => {
    const want = word.charCodeAt(at);
    if (c !== want) fail(c, `in literal ${word} (expecting '${word[at]}')`);
    step = at === word.length - 1 ? endValue : literal(word, at + 1);
  };

  step = beginValue;
  try {
    for (const c of data) step(c);
    // Go's eof(): one more space ends a number or a literal, and may itself be the invalid character.
    if (endTop) return undefined;
    step(0x20);
    return endTop ? undefined : 'unexpected end of JSON input';
  } catch (e) {
    if (e instanceof SyntaxFound) return e.message;
    throw e;
  }
}

/** The kind Go names in `json: cannot unmarshal <kind> into …` for a decoded value. */
export function goJsonKind(value: unknown): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}
