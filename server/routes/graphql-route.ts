// /graphql and /admin: decode → engine → reply (status by response kind and client media type: responses.ts).

import type { EngineResponse, GraphQLRequest } from '../../engine/index.js';
import type { Exchange } from '../exchange.js';
import { decodeGraphqlRequest } from '../graphql-request-decoder.js';
import type { Reply } from '../http-types.js';
import type { ResponseMode } from '../negotiate.js';
import { engineReply } from '../responses.js';
import type { Route, RouteContext } from './route.js';

type Run = (context: RouteContext, request: GraphQLRequest) => Promise<EngineResponse>;

function graphqlEndpoint(scope: 'graphql' | 'admin', run: Run): Route {
  return {
    scope,
    schemaHeaders: scope === 'graphql',
    async handle(exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply> {
      const { request, malformedVariables } = await decodeGraphqlRequest(exchange, context.config.maxBodyBytes);
      return engineReply(await run(context, request), mode, malformedVariables, scope === 'graphql');
    },
  };
}

export const graphqlRoute = graphqlEndpoint('graphql', (context, request) => context.engine.execute(request));
export const adminRoute = graphqlEndpoint('admin', (context, request) => context.engine.executeAdmin(request, context.admin));
