// Contender: Apollo Server 5 standalone (node:http), over the hand-written in-memory store.
// Run: node dist/bench/contenders/apollo.js --port 0 --data <file> [--upstream <url>]

import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { peerSdl } from '../schema.js';
import { announce, contenderArgs, exitOnSignal } from './peer/contender-cli.js';
import { PostStore } from './peer/post-store.js';
import { peerResolvers } from './peer/resolvers.js';

const args = contenderArgs();
const store = PostStore.fromDataset(args.data);
const server = new ApolloServer({ typeDefs: peerSdl, resolvers: { ...peerResolvers(store, args.refUrl) } });
const { url } = await startStandaloneServer(server, { listen: { port: args.port, host: args.host } });
announce(args.host, Number(new URL(url).port));
exitOnSignal();
