// Issue #13 (ngram index), against the real server over HTTP. Dgraph v25 (tok/tok.go NGramTokenizer,
// worker/task.go) analyses an ngram value and a query phrase with its fulltext analysis: Unicode word
// segmentation, Go's per-rune lower-casing, NFKC, bleve's `stop_en` stop words (the 174-word Snowball
// list), the Porter stemmer. A value is indexed under its word 1..4-grams; a query phrase of n tokens
// asks for its word grams of size min(3, n), and a node matches when it holds ANY of them (only
// functions named allof* intersect). alloftext/anyoftext use the same analysis and stop words.
//
// Expected answers are derived by hand from those rules; the analysed tokens of each value are
// written next to it. The Article cases are Dgraph's own (graphql/e2e/common/query.go, ngram*).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

let server: ServerProcess;

const schema = `
type Article { id: ID!  title: String! @search(by: [ngram, regexp])  summaries: [String] @search(by: [ngram]) }
type Phrase { id: ID!  n: Int! @search  text: String @search(by: [ngram])  body: String @search(by: [fulltext]) }
`;

/** Dgraph's e2e test data (graphql/e2e/normal/test_data.json). */
const articles = [
  {
    title: 'Running for Cardiovascular Health',
    summaries: [
      'Running is the best exercise for heart health and fitness',
      'Cardiovascular benefits of regular running routines',
      'How running strengthens your heart and improves circulation',
    ],
  },
  {
    title: 'Weight Training and Muscle Building',
    summaries: [
      'Strength training builds muscle mass and bone density',
      'Weight lifting techniques for beginners and advanced athletes',
      'Building stronger muscles through progressive resistance training',
    ],
  },
  {
    title: 'Nutrition and Healthy Eating Habits',
    summaries: [
      'Proper nutrition fuels your body for optimal performance',
      'Healthy eating patterns that support long-term wellness',
      'Nutritional guidelines for maintaining a balanced diet',
      'How to eat: nutrition and healthy eating habits',
    ],
  },
];
const [RUNNING, WEIGHT, NUTRITION] = articles.map((a) => a.title) as [string, string, string];

/** n → value of both `text` (ngram) and `body` (fulltext); the comment gives Dgraph's tokens. */
const phrases: readonly string[] = [
  'The quick brown fox jumps over the lazy dog', // 1: quick brown fox jump lazi dog
  'A brown quick fox', // 2: brown quick fox
  'Fox', // 3: fox
  'This is the best day', // 4: best dai ("best" is no stop word in stop_en)
  'First, the news!', // 5: first new ("first" neither)
  'ＲＵＮＮＩＮＧ ﬁsh', // 6: run fish (NFKC folds full-width letters and the ligature)
  'Café au lait', // 7: café au lait
  'İstanbul nights', // 8: istanbul night (Go lower-cases İ to i, JS to i + U+0307)
  "You mustn't panic", // 9: panic ("mustn't" is a stop word in stop_en)
];

interface Response {
  data?: any;
  errors?: { message: string; locations?: unknown; path?: unknown }[];
}

async function gql(query: string, variables?: Record<string, unknown>): Promise<Response> {
  const answer = await postGraphql(server.url, { query, variables });
  expect(answer.status).toBe(200);
  return answer.json() as Response;
}

async function phrasesWhere(field: 'text' | 'body', op: string, arg: string): Promise<number[]> {
  const r = await gql(`query ($a: String) { queryPhrase(filter: { ${field}: { ${op}: $a } }, order: { asc: n }) { n } }`, { a: arg });
  expect(r.errors).toBeUndefined();
  return (r.data.queryPhrase as { n: number }[]).map((p) => p.n);
}

const ngram = (arg: string): Promise<number[]> => phrasesWhere('text', 'ngram', arg);

async function articlesWhere(field: 'title' | 'summaries', arg: string): Promise<string[]> {
  const r = await gql(`query ($a: String) { queryArticle(filter: { ${field}: { ngram: $a } }) { title } }`, { a: arg });
  expect(r.errors).toBeUndefined();
  return (r.data.queryArticle as { title: string }[]).map((a) => a.title).sort();
}

beforeAll(async () => {
  server = await startWithSchema(schema);
  const a = await gql(`mutation ($input: [AddArticleInput!]!) { addArticle(input: $input) { numUids } }`, { input: articles });
  expect(a.data).toEqual({ addArticle: { numUids: articles.length } });
  const input = phrases.map((text, i) => ({ n: i + 1, text, body: text }));
  const p = await gql(`mutation ($input: [AddPhraseInput!]!) { addPhrase(input: $input) { numUids } }`, { input });
  expect(p.data).toEqual({ addPhrase: { numUids: phrases.length } });
});

afterAll(async () => {
  await server?.stop();
});

describe("ngram: Dgraph's e2e cases (graphql/e2e/common/query.go)", () => {
  it('ngramFilters and ngramStemming', async () => {
    expect(await articlesWhere('title', 'Running')).toEqual([RUNNING]);
    expect(await articlesWhere('title', 'Training')).toEqual([WEIGHT]);
    expect(await articlesWhere('title', 'Cardiovascular Health')).toEqual([RUNNING]);
    expect(await articlesWhere('title', 'Eating Habits')).toEqual([NUTRITION]);
    expect(await articlesWhere('title', 'Weight Training and')).toEqual([WEIGHT]);
    expect(await articlesWhere('title', 'eat')).toEqual([NUTRITION]);
    expect(await articlesWhere('summaries', 'strengthen')).toEqual([RUNNING]);
    expect(await articlesWhere('summaries', 'maintain')).toEqual([NUTRITION]);
  });
  it('ngramStopWords: "is the best" is the word "best"', async () => {
    expect(await articlesWhere('title', 'for Health')).toEqual([RUNNING]);
    expect(await articlesWhere('title', 'and Healthy')).toEqual([NUTRITION]);
    expect(await articlesWhere('summaries', 'is the best')).toEqual([RUNNING]);
    expect(await articlesWhere('summaries', 'for beginners and')).toEqual([WEIGHT]);
    expect(await articlesWhere('summaries', 'that support long-term')).toEqual([NUTRITION]);
  });
  it('ngramCaseInsensitive, ngramCompoundWords, ngramArrayFields, ngramLinguisticVariations', async () => {
    expect(await articlesWhere('title', 'NUTRITION AND HEALTHY')).toEqual([NUTRITION]);
    expect(await articlesWhere('summaries', 'CARDIOVASCULAR BENEFITS')).toEqual([RUNNING]);
    expect(await articlesWhere('summaries', 'long-term')).toEqual([NUTRITION]);
    expect(await articlesWhere('summaries', 'heart health')).toEqual([RUNNING]);
    expect(await articlesWhere('summaries', 'progressive resistance')).toEqual([WEIGHT]);
    expect(await articlesWhere('title', 'nonexistent')).toEqual([]);
    expect(await articlesWhere('summaries', 'swimming')).toEqual([]);
    expect(await articlesWhere('summaries', 'wellness')).toEqual([NUTRITION]);
    expect(await articlesWhere('summaries', 'nutritional guideline')).toEqual([NUTRITION]);
    expect(await articlesWhere('summaries', ' beginners advanced')).toEqual([WEIGHT]);
    expect(await articlesWhere('summaries', 'eat nutrition healthy')).toEqual([NUTRITION]);
  });
});

describe('ngram: stop words are bleve stop_en', () => {
  it('keeps words the long list dropped ("best", "first", "news")', async () => {
    expect(await ngram('is the best')).toEqual([4]);
    expect(await ngram('the best day')).toEqual([4]); // bigram "best dai"
    expect(await ngram('best days')).toEqual([4]);
    expect(await ngram('first')).toEqual([5]);
    expect(await ngram('First News')).toEqual([5]);
  });
  it('drops words the long list kept ("mustn\'t")', async () => {
    expect(await ngram("you mustn't")).toEqual([]); // no token left
    expect(await ngram("mustn't panic")).toEqual([9]); // the unigram "panic"
  });
  it('a phrase of only stop words, or an empty one, matches nothing', async () => {
    expect(await ngram('the and of')).toEqual([]);
    expect(await ngram('')).toEqual([]);
  });
  it('stop words inside a phrase do not break adjacency', async () => {
    expect(await ngram('jumps over the lazy')).toEqual([1]); // bigram "jump lazi"
  });
});

describe('ngram: a phrase matches any of its word grams of size min(3, n)', () => {
  it('one word: its unigram, also in one-word values', async () => {
    expect(await ngram('fox')).toEqual([1, 2, 3]);
  });
  it('two words: the bigram, in that order; a one-word value never holds it', async () => {
    expect(await ngram('quick fox')).toEqual([2]);
    expect(await ngram('brown fox')).toEqual([1]);
  });
  it('three words: the trigram', async () => {
    expect(await ngram('quick brown fox')).toEqual([1]);
    expect(await ngram('brown quick fox')).toEqual([2]);
  });
  it('more words: the union of the trigrams, not their intersection', async () => {
    // trigrams: "brown quick fox" (2), "quick fox jump" (none), "fox jump lazi" (1)
    expect(await ngram('brown quick fox jumps over lazy')).toEqual([1, 2]);
    expect(await ngram('quick fox jumps')).toEqual([]);
  });
});

describe('ngram: punctuation, case and Unicode', () => {
  it('punctuation separates words', async () => {
    expect(await ngram('brown, quick; fox!')).toEqual([2]);
    expect(await ngram('quick-brown')).toEqual([1]);
    expect(await ngram('"first"... (news)')).toEqual([5]);
  });
  it('case does not matter', async () => {
    expect(await ngram('QUICK BROWN')).toEqual([1]);
    expect(await ngram('rUnNiNg FISH')).toEqual([6]);
  });
  it('NFKC: full-width letters, ligatures, decomposed accents', async () => {
    expect(await ngram('ｆｏｘ')).toEqual([1, 2, 3]);
    expect(await ngram('running')).toEqual([6]);
    expect(await ngram('ﬁsh')).toEqual([6]);
    expect(await ngram('CAFÉ')).toEqual([7]);
    expect(await ngram('cafe\u0301 au lait')).toEqual([7]);
    expect(await ngram('cafe')).toEqual([]);
  });
  it("lower-cases rune by rune as Go does (İ is i)", async () => {
    expect(await ngram('istanbul')).toEqual([8]);
    expect(await ngram('İSTANBUL NIGHT')).toEqual([8]);
  });
});

describe('ngram: updates', () => {
  it('an updated value is found by its new grams only', async () => {
    const set = async (n: number, text: string): Promise<void> => {
      const r = await gql(`mutation ($n: Int, $t: String) { updatePhrase(input: { filter: { n: { eq: $n } }, set: { text: $t } }) { numUids } }`, { n, t: text });
      expect(r.data).toEqual({ updatePhrase: { numUids: 1 } });
    };
    await set(3, 'The best fox');
    expect(await ngram('best fox')).toEqual([3]);
    expect(await ngram('is the best')).toEqual([3, 4]);
    await set(3, 'Fox');
    expect(await ngram('best fox')).toEqual([]);
    expect(await ngram('is the best')).toEqual([4]);
  });
});

describe('fulltext: the same stop words (bleve stop_en)', () => {
  const text = (op: 'alloftext' | 'anyoftext', arg: string): Promise<number[]> => phrasesWhere('body', op, arg);
  it('"best" and "first" are words', async () => {
    expect(await text('alloftext', 'best')).toEqual([4]);
    expect(await text('alloftext', 'is the best day')).toEqual([4]);
    expect(await text('anyoftext', 'first news')).toEqual([5]);
    expect(await text('alloftext', 'best first')).toEqual([]);
    expect(await text('anyoftext', 'best first')).toEqual([4, 5]);
  });
  it('"mustn\'t" and "she\'ll" are stop words', async () => {
    expect(await text('anyoftext', "mustn't")).toEqual([]);
    expect(await text('alloftext', "she'll panic")).toEqual([9]);
  });
  it('Unicode as in ngram', async () => {
    expect(await text('alloftext', 'istanbul')).toEqual([8]);
    expect(await text('anyoftext', 'ＦＩＳＨ')).toEqual([6]);
  });
});
