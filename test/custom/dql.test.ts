// @custom(dql:) root queries (REFERENCE §8.4) against the real server: every DQL text of the test data
// (schema/gqlschema_test.yml, schemagen custom-dql-query-with-subscription) plus the DQL subset around them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, uploaded, type Rig } from './helpers/service.js';

let rig: Rig;

const schema = `
type Tweets {
  id: ID!
  text: String! @search(by: [fulltext])
  user: User
  timestamp: DateTime! @search
}
type User {
  screenName: String! @id
  name: String @search(by: [term, regexp])
  followers: Int @search
  tweets: [Tweets] @hasInverse(field: user)
}
type UserTweetCount @remote {
  screenName: String
  tweetCount: Int
}
type Group @remote {
  followers: Int @remoteResponse(name: "User.followers")
  count: Int
}
type Groups @remote {
  groups: [Group] @remoteResponse(name: "@groupby")
}
type TweetRef @remote {
  id: ID
  text: String
  timestamp: DateTime
  author: UserTweetCount
}
type Query {
  queryUserTweetCounts: [UserTweetCount] @withSubscription @custom(dql: """
    query {
      queryUserTweetCounts(func: type(User)) {
        screenName: User.screenName
        tweetCount: count(User.tweets)
      }
    }
  """)
  tweetsByAuthorFollowers(search: String!): [TweetRef] @custom(dql: """
    query t($search: string) {
      var(func: type(Tweets)) @filter(anyoftext(Tweets.text, $search)) {
        Tweets.user {
          followers as User.followers
        }
        userFollowerCount as sum(val(followers))
      }
      tweetsByAuthorFollowers(func: uid(userFollowerCount), orderdesc: val(userFollowerCount)) {
        id: uid
        text: Tweets.text
        timestamp: Tweets.timestamp
      }
    }
  """)
  usersNamed(name: String!, min: Int, first: Int): [UserTweetCount] @custom(dql: """
    query q($name: string, $min: int = 0, $first: int = 10) {
      usersNamed(func: anyofterms(User.name, $name), first: $first, orderasc: User.screenName) @filter(ge(User.followers, $min) and not eq(User.screenName, "nobody")) {
        screenName: User.screenName
        tweetCount: count(User.tweets)
      }
    }
  """)
  oneUser(screenName: String!): UserTweetCount @custom(dql: """
    query q($screenName: string) {
      oneUser(func: eq(User.screenName, $screenName)) {
        screenName: User.screenName
        tweetCount: count(User.tweets)
      }
    }
  """)
  tweetsWithAuthor(first: Int, offset: Int): [TweetRef] @custom(dql: """
    query q($first: int, $offset: int) {
      tweetsWithAuthor(func: has(Tweets.text), orderdesc: Tweets.timestamp, first: $first, offset: $offset) {
        id: uid
        text: Tweets.text
        author: Tweets.user { screenName: User.screenName }
      }
    }
  """)
  authorsByReverse: [UserTweetCount] @custom(dql: """
    {
      authorsByReverse(func: type(User)) @filter(has(~Tweets.user)) {
        screenName: User.screenName
        tweetCount: count(~Tweets.user)
      }
    }
  """)
  followerGroups: [Groups] @custom(dql: """
    query {
      followerGroups(func: type(User)) @groupby(User.followers) {
        count(uid)
      }
    }
  """)
  recent(since: DateTime!): [TweetRef] @custom(dql: """
    query q($since: string) {
      recent(func: ge(Tweets.timestamp, $since)) @filter(lt(Tweets.timestamp, "2030-01-01T00:00:00Z") or uid(0x999999)) {
        text: Tweets.text
      }
    }
  """)
  usersMatching(re: String!): [UserTweetCount] @custom(dql: """
    query q($re: string) {
      usersMatching(func: type(User)) @filter(regexp(User.name, $re)) { screenName: User.screenName }
    }
  """)
  smiths: [UserTweetCount] @custom(dql: """
    { smiths(func: type(User), orderdesc: User.screenName) @filter(regexp(User.name, /smith$/i) or regexp(User.name, /^Car\\/?ol/)) { screenName: User.screenName } }
  """)
  namesByRegexp(re: String!): [UserTweetCount] @custom(dql: """
    query q($re: string) { namesByRegexp(func: regexp(User.name, $re)) { screenName: User.screenName } }
  """)
  textByRegexp: [TweetRef] @custom(dql: "{ textByRegexp(func: regexp(Tweets.text, /fun/)) { text: Tweets.text } }")
  broken: [UserTweetCount] @custom(dql: "query { broken(func: type(User)) { screenName: User.screenName ")
  unknownFunc: [UserTweetCount] @custom(dql: "query { unknownFunc(func: near(User.screenName, 1)) { screenName: User.screenName } }")
}
`;

beforeAll(async () => {
  rig = await startRig();
  expect(await rig.upload(schema)).toEqual(uploaded);
  const added = await rig.gql(`mutation {
    addUser(input: [
      { screenName: "alice", name: "Alice Smith", followers: 10, tweets: [
        { text: "graph databases are fun", timestamp: "2024-01-01T00:00:00Z" },
        { text: "hello world", timestamp: "2024-02-01T00:00:00Z" } ] },
      { screenName: "bob", name: "Bob Smith", followers: 50, tweets: [{ text: "databases everywhere", timestamp: "2024-03-01T00:00:00Z" }] },
      { screenName: "carol", name: "Carol Jones", followers: 10 }
    ]) { numUids }
  }`);
  expect(added.errors).toBeUndefined();
});
afterAll(async () => {
  await rig?.stop();
});

describe('@custom(dql:)', () => {
  it('custom-dql-query-with-subscription: aliases and count(pred)', async () => {
    const answer = await rig.gql('query { queryUserTweetCounts { screenName tweetCount } }');
    expect(answer).toEqual({
      data: {
        queryUserTweetCounts: [
          { screenName: 'alice', tweetCount: 2 },
          { screenName: 'bob', tweetCount: 1 },
          { screenName: 'carol', tweetCount: 0 },
        ],
      },
    });
  });

  it('the same query subscribed (@withSubscription) returns one result over HTTP POST', async () => {
    const answer = await rig.gql('subscription { queryUserTweetCounts { screenName } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data.queryUserTweetCounts).toEqual([{ screenName: 'alice' }, { screenName: 'bob' }, { screenName: 'carol' }]);
  });

  it('gqlschema_test "@custom directive with correct dql": var blocks, value variables, sum(val()), orderdesc: val()', async () => {
    const answer = await rig.gql('query($s: String!) { tweetsByAuthorFollowers(search: $s) { text timestamp } }', { s: 'database' });
    expect(answer).toEqual({
      data: {
        tweetsByAuthorFollowers: [
          { text: 'databases everywhere', timestamp: '2024-03-01T00:00:00Z' },
          { text: 'graph databases are fun', timestamp: '2024-01-01T00:00:00Z' },
        ],
      },
    });
  });

  it('variables with defaults, anyofterms, @filter with and/not, first, orderasc', async () => {
    const all = await rig.gql('query { usersNamed(name: "smith jones") { screenName tweetCount } }');
    expect(all.data.usersNamed.map((u: { screenName: string }) => u.screenName)).toEqual(['alice', 'bob', 'carol']);
    const some = await rig.gql('query { usersNamed(name: "smith", min: 20) { screenName } }');
    expect(some.data.usersNamed).toEqual([{ screenName: 'bob' }]);
    const first = await rig.gql('query { usersNamed(name: "smith jones", first: 1) { screenName } }');
    expect(first.data.usersNamed).toEqual([{ screenName: 'alice' }]);
  });

  it('a single-object field reads the only node; none is null', async () => {
    expect(await rig.gql('query { oneUser(screenName: "bob") { screenName tweetCount } }')).toEqual({ data: { oneUser: { screenName: 'bob', tweetCount: 1 } } });
    expect(await rig.gql('query { oneUser(screenName: "zed") { screenName } }')).toEqual({ data: { oneUser: null } });
  });

  it('nested predicate blocks, orderdesc on DateTime, first/offset, uid alias', async () => {
    const answer = await rig.gql('query { tweetsWithAuthor(first: 2, offset: 1) { id text author { screenName } } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data.tweetsWithAuthor.map((t: { text: string; author: { screenName: string } }) => [t.text, t.author.screenName])).toEqual([
      ['hello world', 'alice'],
      ['graph databases are fun', 'alice'],
    ]);
    expect(answer.data.tweetsWithAuthor[0].id).toMatch(/^0x[0-9a-f]+$/);
  });

  it('reverse edges ~pred in has() and count()', async () => {
    const answer = await rig.gql('query { authorsByReverse { screenName tweetCount } }');
    expect(answer).toEqual({ data: { authorsByReverse: [{ screenName: 'alice', tweetCount: 2 }, { screenName: 'bob', tweetCount: 1 }] } });
  });

  it('@groupby(pred) { count(uid) } mapped with @remoteResponse(name: "@groupby")', async () => {
    const answer = await rig.gql('query { followerGroups { groups { followers count } } }');
    expect(answer).toEqual({ data: { followerGroups: [{ groups: [{ followers: 10, count: 2 }, { followers: 50, count: 1 }] }] } });
  });

  it('DateTime arguments compare as time; or with uid()', async () => {
    const answer = await rig.gql('query { recent(since: "2024-01-15T00:00:00Z") { text } }');
    expect(answer).toEqual({ data: { recent: [{ text: 'hello world' }, { text: 'databases everywhere' }] } });
  });

  it('regexp(pred, /re/flags): in @filter without a trigram index, at the root with one, from a variable', async () => {
    expect(await rig.gql('query { smiths { screenName } }')).toEqual({ data: { smiths: [{ screenName: 'carol' }, { screenName: 'bob' }, { screenName: 'alice' }] } });
    expect(await rig.gql('query { usersMatching(re: "/^b/i") { screenName } }')).toEqual({ data: { usersMatching: [{ screenName: 'bob' }] } });
    expect(await rig.gql('query { namesByRegexp(re: "/Smith/") { screenName } }')).toEqual({
      data: { namesByRegexp: [{ screenName: 'alice' }, { screenName: 'bob' }] },
    });
  });

  it('regexp errors as Dgraph words them: no trigram index at the root, a bad modifier, a value that is not /re/', async () => {
    const noIndex = await rig.gql('query { textByRegexp { text } }');
    expect(noIndex.errors).toEqual([
      {
        message:
          'Dgraph query failed because Attribute Tweets.text does not have trigram index for regex matching. Please add a trigram index or use has/uid function with regexp() as filter.',
        locations: [{ line: 1, column: 9 }],
        path: ['textByRegexp'],
      },
    ]);
    const modifier = await rig.gql('query { usersMatching(re: "/a/g") { screenName } }');
    expect(modifier.errors?.map((e: { message: string }) => e.message)).toEqual(['Dgraph query failed because Invalid regexp modifier: g']);
    const notRegexp = await rig.gql('query { usersMatching(re: "abc") { screenName } }');
    expect(notRegexp.errors?.map((e: { message: string }) => e.message)).toEqual(['Dgraph query failed because Found invalid regex: [abc]']);
  });

  it('a DQL syntax error or unsupported function: Dgraph query failed because ...', async () => {
    const broken = await rig.gql('query { broken { screenName } }');
    expect(broken.data).toEqual({ broken: [] });
    expect(broken.errors[0].message).toMatch(/^Dgraph query failed because /);
    expect(broken.errors[0].path).toEqual(['broken']);
    const unknown = await rig.gql('query { unknownFunc { screenName } }');
    expect(unknown.errors[0].message).toBe('Dgraph query failed because Function near is not supported');
  });
});
