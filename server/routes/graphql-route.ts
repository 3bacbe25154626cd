// /graphql and /admin: decode → engine → reply (status by response kind and client media type: responses.ts).

import type { EngineResponse, GraphQLRequest } from '../../engine/index.js';
import type { Exchange } from '../exchange.js';
import { decodeGraphqlRequest } from '../graphql-request-decoder.js';
import type { ResponseMode } from '../negotiate.js';
import { engineReply } from '../responses.js';
import type { Respond, Route, RouteContext } from './route.js';
import type { Reply } from '../http-types.js';
import { hasGraphqlErrors, type RequestFigures } from '../request-figures.js';

type Run = (context: RouteContext, request: GraphQLRequest) => EngineResponse | Promise<EngineResponse>;

/** The engine's answer as a reply, its execution time and whether it has errors noted for /metrics. */
function answered(exchange: Exchange, figures: RequestFigures, operation: number, started: number, response: EngineResponse, mode: ResponseMode, malformedVariables: boolean, countTouched: boolean): Reply {
  if (started !== 0) {
    figures.executed(operation, started);
    exchange.graphqlErrors = hasGraphqlErrors(response);
  }
  return engineReply(response, mode, malformedVariables, countTouched);
}

function graphqlEndpoint(scope: 'graphql' | 'admin', run: Run): Route {
  const countTouched = scope === 'graphql';
  return {
    scope,
    schemaHeaders: countTouched,
    handle(exchange: Exchange, mode: ResponseMode, context: RouteContext, respond: Respond): void {
      decodeGraphqlRequest(exchange, context.config.maxBodyBytes, (decode) =>
        respond(() => {
          const { request, malformedVariables } = decode();
          const figures = context.figures;
          const started = figures.enabled ? performance.now() : 0;
          const response = run(context, request);
          const operation = (exchange.operation = context.engine.lastOperation);
          exchange.operationName = request.operationName;
          // Most queries are answered synchronously: no promise, no extra turn.
          if (!(response instanceof Promise)) return answered(exchange, figures, operation, started, response, mode, malformedVariables, countTouched);
          return response.then((r) => answered(exchange, figures, operation, started, r, mode, malformedVariables, countTouched));
        }),
      );
    },
  };
}

export const graphqlRoute = graphqlEndpoint('graphql', (context, request) => context.engine.execute(request));
export const adminRoute = graphqlEndpoint('admin', (context, request) => context.engine.executeAdmin(request, context.admin));
