// Contender: graphql-yoga 5 on node:http, over the hand-written in-memory store.
// Run: node dist/bench/contenders/yoga.js --port 0 --data <file> [--upstream <url>]

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import { peerSdl } from '../schema.js';
import { announce, contenderArgs, exitOnSignal } from './peer/contender-cli.js';
import { PostStore } from './peer/post-store.js';
import { peerResolvers } from './peer/resolvers.js';

const args = contenderArgs();
const store = PostStore.fromDataset(args.data);
const yoga = createYoga({
  schema: createSchema({ typeDefs: peerSdl, resolvers: { ...peerResolvers(store, args.refUrl) } }),
  graphqlEndpoint: '/graphql',
  graphiql: false,
  logging: false,
});
const server: Server = createServer(yoga);
server.listen(args.port, args.host, () => {
  announce(args.host, (server.address() as AddressInfo).port);
});
exitOnSignal();
