// The benchmark schema, twice: as Dgraph SDL for the service, and as the plain GraphQL subset of
// Dgraph's generated API that the peers implement by hand (same field, argument and input names, so
// every contender receives the same document text). `Post.ref` is computed by the loopback upstream
// (bench/upstream/) from the post's slug and score, one BATCH call per request. The service's schema
// also has the shape matrix's fields (bench/matrix/: inverse edge, interface, float, datetime, regexp,
// ngram, geo, embedding), which the peers' subset leaves out: they run only the shapes they can express.

export const serviceSdl = `type Author {
  id: ID!
  handle: String! @id
  name: String! @search(by: [hash])
  posts: [Post] @hasInverse(field: author)
}

interface Dated {
  published: DateTime @search
}

type Post implements Dated {
  id: ID!
  slug: String! @id
  title: String! @search(by: [term])
  body: String! @search(by: [fulltext])
  score: Int! @search
  author: Author
  rating: Float @search
  code: String @search(by: [regexp])
  summary: String @search(by: [ngram])
  place: Point @search
  embedding: [Float!] @embedding @search(by: ["hnsw(metric: euclidean, exponent: 4)"])
}
`;

/** The path of the upstream endpoint that computes `Post.ref`. */
export const refPath = '/post-ref';

/** The service's schema for a load run: `serviceSdl` plus `Post.ref`, a BATCH @custom field on `upstreamUrl`. */
export function serviceSdlWithRef(upstreamUrl: string): string {
  const ref = `  ref: String @custom(http: { url: "${upstreamUrl}${refPath}", method: "POST", body: "{ slug: $slug, score: $score }", mode: BATCH })\n`;
  // Post is the last type of serviceSdl.
  return serviceSdl.replace(/\n}\n$/, `\n${ref}}\n`);
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
