// The resolver map every peer serves (graphql-tools style: Query, Mutation, Post.ref; default field
// resolvers read the plain Post/Author objects).

import type { AddPostInput, Post, PostStore } from './post-store.js';
import { queryPosts, type QueryArgs } from './post-query.js';
import { refResolver, type RefResolver } from './ref-loader.js';

export interface PeerResolvers {
  Query: {
    getPost(root: unknown, args: { id?: string | null; slug?: string | null }): Post | null;
    queryPost(root: unknown, args: QueryArgs): Post[];
  };
  Mutation: {
    addPost(root: unknown, args: { input: readonly AddPostInput[] }): { post: Post[]; numUids: number };
  };
  Post: { ref: RefResolver };
}

/** `upstreamUrl`: the endpoint that computes `Post.ref` for a list of posts. */
export function peerResolvers(store: PostStore, upstreamUrl: string): PeerResolvers {
  return {
    Post: { ref: refResolver(upstreamUrl) },
    Query: {
      getPost: (_root, { id, slug }) => (id ? store.postsById.get(id) : slug ? store.postsBySlug.get(slug) : undefined) ?? null,
      queryPost: (_root, args) => queryPosts(store, args),
    },
    Mutation: {
      addPost: (_root, { input }) => {
        const post = input.map((item) => store.addPost(item));
        return { post, numUids: post.length };
      },
    },
  };
}
