// The benchmark schema, twice: as Dgraph SDL for the service, and as the plain GraphQL subset of
// Dgraph's generated API that the peers implement by hand (same field, argument and input names, so
// every contender receives the same document text). `Post.ref` is computed by the loopback upstream
// (bench/upstream/) from the post's slug and score, one BATCH call per request.

export const serviceSdl = `type Author {
  id: ID!
  handle: String! @id
  name: String! @search(by: [hash])
}

type Post {
  id: ID!
  slug: String! @id
  title: String! @search(by: [term])
  body: String! @search(by: [fulltext])
  score: Int! @search
  author: Author
}
`;

/** The path of the upstream endpoint that computes `Post.ref`. */
export const refPath = '/post-ref';

/** The service's schema for a load run: `serviceSdl` plus `Post.ref`, a BATCH @custom field on `upstreamUrl`. */
export function serviceSdlWithRef(upstreamUrl: string): string {
  const ref = `  ref: String @custom(http: { url: "${upstreamUrl}${refPath}", method: "POST", body: "{ slug: $slug, score: $score }", mode: BATCH })\n`;
  return serviceSdl.replace('  author: Author\n}', `  author: Author\n${ref}}`);
}

export const peerSdl = `type Author {
  id: ID!
  handle: String!
  name: String!
}

type Post {
  id: ID!
  slug: String!
  title: String!
  body: String!
  score: Int!
  author: Author
  ref: String
}

input StringHashFilter { eq: String in: [String] }
input StringTermFilter { allofterms: String anyofterms: String }
input StringFullTextFilter { alloftext: String anyoftext: String }
input IntFilter { eq: Int le: Int lt: Int ge: Int gt: Int }

input PostFilter {
  id: [ID!]
  slug: StringHashFilter
  title: StringTermFilter
  body: StringFullTextFilter
  score: IntFilter
  and: [PostFilter]
}

enum PostOrderable { slug title score }
input PostOrder { asc: PostOrderable desc: PostOrderable then: PostOrder }

input AuthorRef { id: ID handle: String name: String }
input AddPostInput { slug: String! title: String! body: String! score: Int! author: AuthorRef }
type AddPostPayload { post: [Post] numUids: Int }

type Query {
  getPost(id: ID, slug: String): Post
  queryPost(filter: PostFilter, order: PostOrder, first: Int, offset: Int): [Post]
}

type Mutation {
  addPost(input: [AddPostInput!]!): AddPostPayload
}
`;
