// Go's strconv.Quote, which is how Dgraph prints string values of directive arguments.

const printable = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;
const shortEscapes: Readonly<Record<number, string>> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
  34: '\\"',
  92: '\\\\',
};

export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    const short = shortEscapes[cp];
    if (short !== undefined) out += short;
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (printable.test(ch)) out += ch;
    else if (cp > 0xffff) out += `\\U${cp.toString(16).padStart(8, '0')}`;
    else out += `\\u${cp.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}
