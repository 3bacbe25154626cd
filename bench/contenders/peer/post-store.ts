// What a competent user writes instead of a database: plain objects in Maps, plus inverted indexes
// (word → posts, kept sorted by score descending so "top N by score" stops early). Shared by the
// mercurius, Apollo and yoga contenders so they differ only in the GraphQL server.

import type { Dataset } from '../../data/dataset.js';

export interface Author {
  readonly id: string;
  readonly handle: string;
  readonly name: string;
}

export interface Post {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly body: string;
  readonly score: number;
  readonly author: Author | null;
  readonly titleWords: ReadonlySet<string>;
  readonly bodyWords: ReadonlySet<string>;
}

export interface AddPostInput {
  readonly slug: string;
  readonly title: string;
  readonly body: string;
  readonly score: number;
  readonly author?: { readonly id?: string | null; readonly handle?: string | null } | null;
}

/** Lower-cased words, as Dgraph's term index splits them. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

export class PostStore {
  readonly postsById = new Map<string, Post>();
  readonly postsBySlug = new Map<string, Post>();
  readonly authorsById = new Map<string, Author>();
  readonly authorsByHandle = new Map<string, Author>();
  /** All posts, by score descending. */
  readonly byScore: Post[] = [];
  readonly titleIndex = new Map<string, Post[]>();
  readonly bodyIndex = new Map<string, Post[]>();
  #nextUid = 1;

  static fromDataset(data: Dataset): PostStore {
    const store = new PostStore();
    const authors = data.authors.map((a) => store.addAuthor(a.handle, a.name));
    const posts = data.posts.map((p) => store.#newPost({ ...p, author: authors[p.author] ?? null }));
    posts.sort(byScoreDesc);
    for (const post of posts) store.#index(post, false);
    return store;
  }

  addAuthor(handle: string, name: string): Author {
    const author = { id: this.#uid(), handle, name };
    this.authorsById.set(author.id, author);
    this.authorsByHandle.set(handle, author);
    return author;
  }

  /** Adds one post; throws on a duplicate slug (as Dgraph refuses a duplicate @id). */
  addPost(input: AddPostInput): Post {
    if (this.postsBySlug.has(input.slug)) throw new Error(`id ${input.slug} already exists for field slug inside type Post`);
    const ref = input.author;
    const author = ref?.id ? (this.authorsById.get(ref.id) ?? null) : ref?.handle ? (this.authorsByHandle.get(ref.handle) ?? null) : null;
    const post = this.#newPost({ ...input, author });
    this.#index(post, true);
    return post;
  }

  #newPost(p: { slug: string; title: string; body: string; score: number; author: Author | null }): Post {
    const post: Post = { id: this.#uid(), ...p, titleWords: new Set(tokenize(p.title)), bodyWords: new Set(tokenize(p.body)) };
    this.postsById.set(post.id, post);
    this.postsBySlug.set(post.slug, post);
    return post;
  }

  #index(post: Post, sortedInsert: boolean): void {
    const put = sortedInsert ? insertByScore : (list: Post[], p: Post): void => void list.push(p);
    put(this.byScore, post);
    for (const word of post.titleWords) put(listFor(this.titleIndex, word), post);
    for (const word of post.bodyWords) put(listFor(this.bodyIndex, word), post);
  }

  #uid(): string {
    return `0x${(this.#nextUid++).toString(16)}`;
  }
}

function listFor(index: Map<string, Post[]>, word: string): Post[] {
  let list = index.get(word);
  if (list === undefined) index.set(word, (list = []));
  return list;
}

const byScoreDesc = (a: Post, b: Post): number => b.score - a.score;

function insertByScore(list: Post[], post: Post): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid]?.score ?? 0) > post.score) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, post);
}
