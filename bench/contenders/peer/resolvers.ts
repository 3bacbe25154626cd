// The resolver map every peer serves (graphql-tools style: Query, Mutation; default field resolvers
// read the plain Post/Author objects).

import type { AddPostInput, Post, PostStore } from './post-store.js';
import { queryPosts, type QueryArgs } from './post-query.js';

export interface PeerResolvers {
  Query: {
    getPost(root: unknown, args: { id?: string | null; slug?: string | null }): Post | null;
    queryPost(root: unknown, args: QueryArgs): Post[];
  };
  Mutation: {
    addPost(root: unknown, args: { input: readonly AddPostInput[] }): { post: Post[]; numUids: number };
  };
}

export function peerResolvers(store: PostStore): PeerResolvers {
  return {
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
