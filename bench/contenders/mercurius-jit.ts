// Contender: fastify + mercurius with graphql-jit (`jit: 1`: compile a query on its first use), over
// the hand-written in-memory store. Run: node dist/bench/contenders/mercurius-jit.js --port 0 --data <file> [--upstream <url>]

import Fastify from 'fastify';
import mercurius from 'mercurius';
import { peerSdl } from '../schema.js';
import { announce, contenderArgs, exitOnSignal } from './peer/contender-cli.js';
import { PostStore } from './peer/post-store.js';
import { peerResolvers } from './peer/resolvers.js';

const args = contenderArgs();
const store = PostStore.fromDataset(args.data);
const app = Fastify({ logger: false });
await app.register(mercurius, {
  schema: peerSdl,
  resolvers: peerResolvers(store, args.refUrl) as unknown as mercurius.IResolvers,
  jit: 1,
  path: '/graphql',
});
await app.listen({ port: args.port, host: args.host });
const address = app.server.address();
announce(args.host, typeof address === 'object' && address !== null ? address.port : args.port);
exitOnSignal();
