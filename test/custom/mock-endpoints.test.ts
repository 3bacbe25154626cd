// Dgraph's custom-logic mock endpoints (strict method/URL/body/header checks), over the real server:
// REST queries and mutations, forwarded and secret headers, field endpoints, remote GraphQL errors.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, uploaded, type Rig } from './helpers/service.js';

let rig: Rig;
const schema = (m: string): string => `
type MovieDirector @remote { id: ID! name: String! directed: [Movie] }
type Movie @remote { id: ID! name: String director: [MovieDirector] }
type TwitterUser @remote { name: String screen_name: String followers_count: Int friends_count: Int }
type Followers @remote { users: [TwitterUser] }
input MovieDirectorInput { id: ID name: String directed: [MovieInput] }
input MovieInput { id: ID name: String director: [MovieDirectorInput] }
type Query {
  myFavoriteMovies(id: ID!, name: String!, num: Int): [Movie] @custom(http: { url: "${m}/favMovies/$id?name=$name&num=$num", method: "GET" })
  myFavoriteMoviesError(id: ID!, name: String!, num: Int): [Movie] @custom(http: { url: "${m}/favMoviesError/$id?name=$name&num=$num", method: "GET" })
  myFavoriteMoviesPost(id: ID!, name: String!, num: Int): [Movie] @custom(http: { url: "${m}/favMoviesPost/$id?name=$name&num=$num", method: POST })
  postWithBody(id: ID!, name: String!, movie_type: String): [Movie] @custom(http: { url: "${m}/favMoviesPostWithBody/$id?name=$name", method: "POST", body: "{ id: $id, name: $name, movie_type: $movie_type }" })
  verifyHeaders(id: ID!): [Movie] @custom(http: { url: "${m}/verifyHeaders", method: GET, forwardHeaders: ["X-App-Token", "X-User-Id"], secretHeaders: ["Github-Api-Token"] })
  verifyCustomNameHeaders(id: ID!): [Movie] @custom(http: { url: "${m}/verifyCustomNameHeaders", method: GET, forwardHeaders: ["X-App-Token", "X-User-Id"], secretHeaders: ["Authorization:GITHUB_API_TOKEN"] })
  getFollowers(screen_name: String!): Followers @custom(http: { url: "${m}/twitterfollowers?screen_name=$screen_name", method: "GET" })
  missing(id: ID!): [Movie] @custom(http: { url: "${m}/nonExistentURL/$id", method: "GET" })
}
type Mutation {
  createMyFavouriteMovies(input: [MovieInput!]): [Movie] @custom(http: { url: "${m}/favMoviesCreate", method: "POST", body: "{ movies: $input }" })
  createError(input: [MovieInput!]): [Movie] @custom(http: { url: "${m}/favMoviesCreateError", method: "POST", body: "{ movies: $input }" })
  createWithNullBody(input: [MovieInput!]): [Movie] @custom(http: { url: "${m}/favMoviesCreateWithNullBody", method: "POST", body: "{ movies: $input }" })
  updateMyFavouriteMovie(id: ID!, name: String, director: [MovieDirectorInput]): Movie @custom(http: { url: "${m}/favMoviesUpdate/$id", method: "PATCH", body: "{ name: $name, director: $director }" })
  deleteMyFavouriteMovie(id: ID!): Movie @custom(http: { url: "${m}/favMoviesDelete/$id", method: "DELETE", forwardHeaders: ["X-App-Token", "X-User-Id"] })
}
type User {
  id: ID!
  age: Int
  nameError: String @custom(http: { url: "${m}/userNameError", method: "GET", body: "{ uid: $id }" })
  checkedName: String @custom(http: { url: "${m}/checkHeadersForUserName", method: "GET", body: "{ uid: $id }", secretHeaders: ["Github-Api-Token:GITHUB_TOKEN"] })
  checkedCar: MovieDirector @custom(http: { url: "${m}/checkHeadersForCars", method: "GET", body: "{ uid: $id }", mode: BATCH, secretHeaders: ["Stripe-Api-Key:STRIPE"] })
  gqlName: String @custom(http: { url: "${m}/gqlUserNameWithError", method: "POST", graphql: "query($id: ID!) { userName(id: $id) }", skipIntrospection: true })
}
# Service.Secret Github-Api-Token "random-fake-token"
# Service.Secret GITHUB_API_TOKEN "random-fake-token"
# Service.Secret GITHUB_TOKEN "some-api-token"
# Service.Secret STRIPE "some-api-key"
`;

const movies = [
  { id: '0x3', name: 'Star Wars', director: [{ id: '0x4', name: 'George Lucas' }] },
  { id: '0x5', name: 'Star Trek', director: [{ id: '0x6', name: 'J.J. Abrams' }] },
];
const sel = '{ id name director { id name } }';

beforeAll(async () => {
  rig = await startRig();
  expect(await rig.upload(schema(rig.mock.url))).toEqual(uploaded);
});
afterAll(async () => {
  await rig?.stop();
});

describe('REST custom queries (strict mock endpoints)', () => {
  it('GET with path and query placeholders', async () => {
    expect(await rig.gql(`query { myFavoriteMovies(id: "0x123", name: "Author", num: 10) ${sel} }`)).toEqual({ data: { myFavoriteMovies: movies } });
  });
  it('POST without a body template sends no body', async () => {
    expect(await rig.gql(`query { myFavoriteMoviesPost(id: "0x123", name: "Author", num: 10) ${sel} }`)).toEqual({ data: { myFavoriteMoviesPost: movies } });
  });
  it('POST with url and body together (keys sorted)', async () => {
    expect(await rig.gql(`query { postWithBody(id: "0x123", name: "Author", movie_type: "space") ${sel} }`)).toEqual({ data: { postWithBody: movies } });
  });
  it('remote GraphQL errors of a non-2xx answer pass through verbatim', async () => {
    const answer = await rig.gql(`query { myFavoriteMoviesError(id: "0x123", name: "Author", num: 10) ${sel} }`);
    expect(answer.errors).toEqual([{ message: 'Rest API returns Error for myFavoriteMovies query', locations: [{ line: 5, column: 4 }], path: ['Movies', 'name'] }]);
    expect(answer.data).toEqual({ myFavoriteMoviesError: [] });
  });
  it('forwards listed headers and fills secret headers; nothing else leaves', async () => {
    const headers = { 'x-app-token': 'app-token', 'x-user-id': '123', 'x-not-listed': 'nope', authorization: 'Bearer not-forwarded' };
    expect(await rig.gql('query { verifyHeaders(id: "0x1") { id name } }', undefined, headers)).toEqual({ data: { verifyHeaders: [{ id: '0x3', name: 'Star Wars' }] } });
    expect(await rig.gql('query { verifyCustomNameHeaders(id: "0x1") { id name } }', undefined, headers)).toEqual({
      data: { verifyCustomNameHeaders: [{ id: '0x3', name: 'Star Wars' }] },
    });
  });
  it('query parameters are chosen by value', async () => {
    const answer = await rig.gql('query { a: getFollowers(screen_name: "manishrjain") { users { name screen_name followers_count friends_count } } b: getFollowers(screen_name: "amazingPanda") { users { name } } }');
    expect(answer).toEqual({
      data: { a: { users: [{ name: 'hi_balaji', screen_name: 'hi_balaji', followers_count: 0, friends_count: 117 }] }, b: { users: [{ name: 'twitter_bot' }] } },
    });
  });
  it('a 404 text body becomes Dgraph\'s unexpected-error message', async () => {
    const answer = await rig.gql('query { missing(id: "0x1") { id } }');
    expect(answer.errors).toEqual([
      {
        message: 'Evaluation of custom field failed because external request returned an error: unexpected error with: 404 for field: missing within type: Query.',
        locations: [{ line: 1, column: 9 }],
        path: ['missing'],
      },
    ]);
  });
  it('secrets appear in no response, not even introspection', async () => {
    const answer = await send('query { __schema { types { name description fields { name description } } } }');
    expect(answer).not.toMatch(/random-fake-token|some-api-key|some-api-token/);
  });
});

async function send(query: string): Promise<string> {
  return JSON.stringify(await rig.gql(query));
}

describe('REST custom mutations', () => {
  const input = { input: [{ name: 'Mov1', director: [{ name: 'Dir1' }] }, { name: 'Mov2' }] };
  it('POST body from variables', async () => {
    const answer = await rig.gql(`mutation($input: [MovieInput!]) { createMyFavouriteMovies(input: $input) ${sel} }`, input);
    expect(answer.data).toEqual({
      createMyFavouriteMovies: [
        { id: '0x1', name: 'Mov1', director: [{ id: '0x2', name: 'Dir1' }] },
        { id: '0x3', name: 'Mov2', director: [] },
      ],
    });
  });
  it('error answer passes through', async () => {
    const answer = await rig.gql(`mutation($input: [MovieInput!]) { createError(input: $input) ${sel} }`, input);
    expect(answer.errors).toEqual([{ message: 'Rest API returns Error for FavoriteMoviesCreate query' }]);
  });
  it('explicit null stays null in the body', async () => {
    const answer = await rig.gql(`mutation($input: [MovieInput!]) { createWithNullBody(input: $input) ${sel} }`, {
      input: [{ name: 'Mov1', director: [{ name: 'Dir1' }] }, { name: null }],
    });
    expect(answer.data.createWithNullBody[1]).toEqual({ id: '0x3', name: null, director: [] });
  });
  it('PATCH with url and body', async () => {
    const answer = await rig.gql(`mutation { updateMyFavouriteMovie(id: "0x1", name: "Mov1", director: [{ name: "Dir1" }]) ${sel} }`);
    expect(answer.data).toEqual({ updateMyFavouriteMovie: { id: '0x1', name: 'Mov1', director: [{ id: '0x2', name: 'Dir1' }] } });
  });
  it('DELETE sends no body and the forwarded headers', async () => {
    const answer = await rig.gql('mutation { deleteMyFavouriteMovie(id: "0x1") { id name } }', undefined, { 'x-app-token': 'app-token', 'x-user-id': '123' });
    expect(answer.data).toEqual({ deleteMyFavouriteMovie: { id: '0x1', name: 'Mov1' } });
  });
});

describe('custom fields of stored types', () => {
  it('field errors carry the path; siblings are intact; SINGLE/BATCH secret headers exact', async () => {
    await rig.gql('mutation { addUser(input: [{ age: 1 }, { age: 2 }, { age: 3 }]) { numUids } }');
    const answer = await rig.gql('query { queryUser(order: { asc: age }) { id age nameError checkedName checkedCar { name } } }');
    const users = answer.data.queryUser as { id: string; age: number; nameError: null; checkedName: string; checkedCar: { name: string } }[];
    expect(users.map((u) => u.age)).toEqual([1, 2, 3]);
    expect(users.every((u) => u.nameError === null && u.checkedName === 'foo' && u.checkedCar.name === 'foo')).toBe(true);
    expect(answer.errors).toHaveLength(3);
    expect(answer.errors[0]).toEqual({ message: 'Rest API returns Error for field name' });
  });
  it('remote GraphQL errors are appended and the data still used', async () => {
    const answer = await rig.gql('query { queryUser(order: { asc: age }, first: 1) { id gqlName } }');
    const user = answer.data.queryUser[0];
    expect(user.gqlName).toBe(`uname-${user.id}`);
    expect(answer.errors).toEqual([{ message: 'error-1 from username' }, { message: 'error-2 from username' }]);
  });
});
