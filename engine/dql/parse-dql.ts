// A parser for the DQL subset behind `@custom(dql:)` (REFERENCE §8.4): `query name($v: type = default)`,
// blocks `[x as] name(func: f(...), first:, offset:, after:, orderasc:, orderdesc:) @filter(...) @groupby(...)`,
// nested predicate blocks (`~pred` reverse), aliases `alias : pred`, `uid`, `count(pred|uid)`, value
// variables `x as pred`, `val(x)`, `sum/min/max/avg(val(x))`. Errors are thrown as DqlError.

export class DqlError extends Error {}

export type FuncArg =
  | { readonly kind: 'pred'; readonly name: string }
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'variable'; readonly name: string }
  | { readonly kind: 'val'; readonly name: string }
  | { readonly kind: 'count'; readonly pred: string }
  | { readonly kind: 'list'; readonly items: readonly FuncArg[] };

export interface FuncCall {
  readonly name: string;
  readonly args: readonly FuncArg[];
}

export type FilterExpr =
  | { readonly kind: 'and' | 'or'; readonly items: readonly FilterExpr[] }
  | { readonly kind: 'not'; readonly item: FilterExpr }
  | { readonly kind: 'func'; readonly call: FuncCall };

export interface Order {
  readonly desc: boolean;
  /** A predicate, or a value variable when `val` is set. */
  readonly by: string;
  readonly val: boolean;
}

export interface BlockArgs {
  readonly first?: FuncArg;
  readonly offset?: FuncArg;
  readonly after?: FuncArg;
  readonly order: readonly Order[];
}

export type Selection =
  | { readonly kind: 'uid'; readonly alias?: string; readonly varName?: string }
  | {
      readonly kind: 'pred';
      readonly alias?: string;
      readonly varName?: string;
      readonly pred: string;
      readonly reverse: boolean;
      readonly args: BlockArgs;
      readonly filter?: FilterExpr;
      readonly children?: readonly Selection[];
    }
  | { readonly kind: 'count'; readonly alias?: string; readonly varName?: string; readonly pred: string; readonly reverse: boolean }
  | { readonly kind: 'val'; readonly alias?: string; readonly varName?: string; readonly name: string }
  | { readonly kind: 'aggregate'; readonly alias?: string; readonly varName?: string; readonly fn: 'sum' | 'min' | 'max' | 'avg'; readonly name: string };

export interface Block {
  readonly name: string;
  readonly varName?: string;
  readonly func: FuncCall;
  readonly args: BlockArgs;
  readonly filter?: FilterExpr;
  readonly groupBy?: readonly string[];
  readonly children: readonly Selection[];
}

export interface VariableDecl {
  readonly type: string;
  readonly defaultValue?: string;
}

export interface DqlQuery {
  readonly variables: ReadonlyMap<string, VariableDecl>;
  readonly blocks: readonly Block[];
}

type Token = { readonly kind: 'word' | 'string' | 'var' | 'directive' | 'punct' | 'regexp'; readonly text: string; readonly pos: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if ('{}(),:[]=!'.includes(c)) {
      tokens.push({ kind: 'punct', text: c, pos: i++ });
    } else if (c === '"' || c === "'") {
      let value = '';
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        value += text[i];
        i++;
      }
      if (i >= text.length) throw new DqlError(`Unterminated quoted string at position ${start}`);
      i++;
      tokens.push({ kind: 'string', text: value, pos: start });
    } else if (c === '/') {
      // A regexp literal `/expr/flags` (Dgraph's lexRegex: `\\` escapes the next character); the text is
      // kept whole, as a `$variable` holding it would be, and split by the regexp function.
      i++;
      while (i < text.length && text[i] !== '/') i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length) throw new DqlError('Unclosed regexp');
      i++;
      while (i < text.length && /[a-z]/.test(text[i] as string)) i++;
      tokens.push({ kind: 'regexp', text: text.slice(start, i), pos: start });
    } else if (c === '<') {
      const end = text.indexOf('>', i);
      if (end < 0) throw new DqlError(`Unterminated IRI at position ${start}`);
      tokens.push({ kind: 'word', text: text.slice(i + 1, end), pos: start });
      i = end + 1;
    } else if (c === '$' || c === '@' || /[\w.~-]/.test(c)) {
      i++;
      while (i < text.length && /[\w.~-]/.test(text[i] as string)) i++;
      const word = text.slice(c === '$' || c === '@' ? start + 1 : start, i);
      tokens.push({ kind: c === '$' ? 'var' : c === '@' ? 'directive' : 'word', text: word, pos: start });
    } else {
      throw new DqlError(`Unrecognized character in lexText: U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} '${c}'`);
    }
  }
  return tokens;
}

export function parseDql(text: string): DqlQuery {
  return new Parser(tokenize(text)).query();
}

class Parser {
  #i = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  query(): DqlQuery {
    const variables = new Map<string, VariableDecl>();
    if (this.#peek()?.kind === 'word' && this.#peek()?.text === 'query') {
      this.#i++;
      if (this.#peek()?.kind === 'word') this.#i++;
      if (this.#isPunct('(')) {
        this.#i++;
        while (!this.#isPunct(')')) {
          const name = this.#expect('var').text;
          this.#punct(':');
          let type = this.#expect('word').text;
          if (this.#isPunct('!')) this.#i++;
          type = type.replace(/!$/, '');
          let defaultValue: string | undefined;
          if (this.#isPunct('=')) {
            this.#i++;
            defaultValue = this.#next().text;
          }
          variables.set(name, defaultValue === undefined ? { type } : { type, defaultValue });
          if (this.#isPunct(',')) this.#i++;
        }
        this.#i++;
      }
    }
    this.#punct('{');
    const blocks: Block[] = [];
    while (!this.#isPunct('}')) blocks.push(this.#block());
    this.#i++;
    if (this.#i < this.tokens.length) throw new DqlError(`Unexpected ${this.#peek()?.text ?? ''} after the query`);
    return { variables, blocks };
  }

  #block(): Block {
    let varName: string | undefined;
    let name = this.#expect('word').text;
    if (this.#peek()?.kind === 'word' && this.#peek()?.text === 'as') {
      this.#i++;
      varName = name;
      name = this.#expect('word').text;
    }
    this.#punct('(');
    let func: FuncCall | undefined;
    const args: { first?: FuncArg; offset?: FuncArg; after?: FuncArg; order: Order[] } = { order: [] };
    while (!this.#isPunct(')')) {
      const key = this.#expect('word').text;
      this.#punct(':');
      if (key === 'func') func = this.#funcCall();
      else this.#pageArg(key, args);
      if (this.#isPunct(',')) this.#i++;
    }
    this.#i++;
    if (func === undefined) throw new DqlError(`Invalid query: block ${name} has no func`);
    const directives = this.#directives();
    const children = this.#selections();
    return {
      name,
      func,
      args,
      children,
      ...(varName === undefined ? {} : { varName }),
      ...(directives.filter === undefined ? {} : { filter: directives.filter }),
      ...(directives.groupBy === undefined ? {} : { groupBy: directives.groupBy }),
    };
  }

  #pageArg(key: string, args: { first?: FuncArg; offset?: FuncArg; after?: FuncArg; order: Order[] }): void {
    if (key === 'first' || key === 'offset' || key === 'after') {
      args[key] = this.#value();
    } else if (key === 'orderasc' || key === 'orderdesc') {
      const word = this.#expect('word').text;
      if (word === 'val') {
        this.#punct('(');
        const by = this.#expect('word').text;
        this.#punct(')');
        args.order.push({ desc: key === 'orderdesc', by, val: true });
      } else args.order.push({ desc: key === 'orderdesc', by: word, val: false });
    } else throw new DqlError(`Got invalid keyword: ${key}`);
  }

  #directives(): { filter?: FilterExpr; groupBy?: string[] } {
    const out: { filter?: FilterExpr; groupBy?: string[] } = {};
    while (this.#peek()?.kind === 'directive') {
      const name = this.#next().text;
      if (name === 'filter') {
        this.#punct('(');
        out.filter = this.#orExpr();
        this.#punct(')');
      } else if (name === 'groupby') {
        this.#punct('(');
        const preds: string[] = [];
        while (!this.#isPunct(')')) {
          preds.push(this.#expect('word').text);
          if (this.#isPunct(',')) this.#i++;
        }
        this.#i++;
        out.groupBy = preds;
      } else if (name === 'cascade' || name === 'normalize' || name === 'ignorereflex') {
        if (this.#isPunct('(')) while (!this.#isPunct(')')) this.#i++;
        if (this.#isPunct(')')) this.#i++;
      } else throw new DqlError(`Unknown directive ${name}`);
    }
    return out;
  }

  #selections(): Selection[] {
    if (!this.#isPunct('{')) return [];
    this.#i++;
    const out: Selection[] = [];
    while (!this.#isPunct('}')) {
      if (this.#peek() === undefined) throw new DqlError('Unexpected end of query: missing }');
      out.push(this.#selection());
    }
    this.#i++;
    return out;
  }

  #selection(): Selection {
    let alias: string | undefined;
    let varName: string | undefined;
    let word = this.#expect('word').text;
    if (this.#isPunct(':')) {
      this.#i++;
      alias = word;
      word = this.#expect('word').text;
    }
    if (this.#peek()?.kind === 'word' && this.#peek()?.text === 'as') {
      this.#i++;
      varName = word;
      word = this.#expect('word').text;
    }
    const named = { ...(alias === undefined ? {} : { alias }), ...(varName === undefined ? {} : { varName }) };
    if (word === 'uid' && !this.#isPunct('(')) return { kind: 'uid', ...named };
    if (word === 'count' && this.#isPunct('(')) {
      this.#i++;
      const pred = this.#expect('word').text;
      this.#punct(')');
      return { kind: 'count', ...named, pred: pred.replace(/^~/, ''), reverse: pred.startsWith('~') };
    }
    if (word === 'val' && this.#isPunct('(')) {
      this.#i++;
      const name = this.#expect('word').text;
      this.#punct(')');
      return { kind: 'val', ...named, name };
    }
    if ((word === 'sum' || word === 'min' || word === 'max' || word === 'avg') && this.#isPunct('(')) {
      this.#i++;
      const inner = this.#expect('word').text;
      if (inner !== 'val') throw new DqlError(`Only val() is supported inside ${word}()`);
      this.#punct('(');
      const name = this.#expect('word').text;
      this.#punct(')');
      this.#punct(')');
      return { kind: 'aggregate', ...named, fn: word, name };
    }
    const args: { first?: FuncArg; offset?: FuncArg; after?: FuncArg; order: Order[] } = { order: [] };
    if (this.#isPunct('(')) {
      this.#i++;
      while (!this.#isPunct(')')) {
        const key = this.#expect('word').text;
        this.#punct(':');
        this.#pageArg(key, args);
        if (this.#isPunct(',')) this.#i++;
      }
      this.#i++;
    }
    const directives = this.#directives();
    const children = this.#isPunct('{') ? this.#selections() : undefined;
    return {
      kind: 'pred',
      ...named,
      pred: word.replace(/^~/, ''),
      reverse: word.startsWith('~'),
      args,
      ...(directives.filter === undefined ? {} : { filter: directives.filter }),
      ...(children === undefined ? {} : { children }),
    };
  }

  #orExpr(): FilterExpr {
    return this.#chain('or', () => this.#andExpr());
  }

  #andExpr(): FilterExpr {
    return this.#chain('and', () => this.#unary());
  }

  /** `operand (keyword operand)*`: one operand stands alone, more become one `keyword` node. */
  #chain(keyword: 'and' | 'or', operand: () => FilterExpr): FilterExpr {
    const items = [operand()];
    while (this.#peek()?.kind === 'word' && this.#peek()?.text.toLowerCase() === keyword) {
      this.#i++;
      items.push(operand());
    }
    return items.length === 1 ? (items[0] as FilterExpr) : { kind: keyword, items };
  }

  #unary(): FilterExpr {
    if (this.#peek()?.kind === 'word' && this.#peek()?.text.toLowerCase() === 'not') {
      this.#i++;
      return { kind: 'not', item: this.#unary() };
    }
    if (this.#isPunct('(')) {
      this.#i++;
      const inner = this.#orExpr();
      this.#punct(')');
      return inner;
    }
    return { kind: 'func', call: this.#funcCall() };
  }

  #funcCall(): FuncCall {
    const name = this.#expect('word').text;
    this.#punct('(');
    const args: FuncArg[] = [];
    while (!this.#isPunct(')')) {
      args.push(this.#funcArg(args.length === 0 && name !== 'uid'));
      if (this.#isPunct(',')) this.#i++;
    }
    this.#i++;
    return { name, args };
  }

  #funcArg(first: boolean): FuncArg {
    const token = this.#peek();
    if (token?.kind === 'word' && (token.text === 'val' || token.text === 'count') && this.tokens[this.#i + 1]?.text === '(') {
      this.#i += 2;
      const inner = this.#expect('word').text;
      this.#punct(')');
      return token.text === 'val' ? { kind: 'val', name: inner } : { kind: 'count', pred: inner };
    }
    if (first && token?.kind === 'word') {
      this.#i++;
      return { kind: 'pred', name: token.text };
    }
    return this.#value();
  }

  #value(): FuncArg {
    const token = this.#next();
    if (token.kind === 'var') return { kind: 'variable', name: token.text };
    if (token.kind === 'string' || token.kind === 'word' || token.kind === 'regexp') return { kind: 'literal', value: token.text };
    if (token.kind === 'punct' && token.text === '[') {
      const items: FuncArg[] = [];
      while (!this.#isPunct(']')) {
        items.push(this.#value());
        if (this.#isPunct(',')) this.#i++;
      }
      this.#i++;
      return { kind: 'list', items };
    }
    throw new DqlError(`Unexpected ${token.text} at position ${token.pos}`);
  }

  #peek(): Token | undefined {
    return this.tokens[this.#i];
  }

  #next(): Token {
    const token = this.tokens[this.#i++];
    if (token === undefined) throw new DqlError('Unexpected end of query');
    return token;
  }

  #isPunct(text: string): boolean {
    const token = this.tokens[this.#i];
    return token !== undefined && token.kind === 'punct' && token.text === text;
  }

  #punct(text: string): void {
    const token = this.#next();
    if (token.kind !== 'punct' || token.text !== text) throw new DqlError(`Expected ${text}, got ${token.text} at position ${token.pos}`);
  }

  #expect(kind: Token['kind']): Token {
    const token = this.#next();
    if (token.kind !== kind) throw new DqlError(`Unexpected ${token.text} at position ${token.pos}`);
    return token;
  }
}
