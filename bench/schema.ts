// The benchmark schema, twice: as Dgraph SDL for the service, and as the plain GraphQL subset of
// Dgraph's generated API that the peers implement by hand (same field, argument and input names, so
// every contender receives the same document text).

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
