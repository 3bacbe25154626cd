// An executor over a graph the test owns: for cases whose data no mutation can write (a missing
// non-null value, a single-valued edge with two targets), the test writes the store directly and
// runs queries through the same request and execution stages as the engine facade.

import type { GraphQLRequest } from '../../../engine/api.js';
import { Executor } from '../../../engine/exec/executor.js';
import { Graph } from '../../../engine/exec/graph.js';
import { serializeResponse } from '../../../engine/exec/serialize-response.js';
import { RequestPreparer } from '../../../engine/request/prepare-request.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import type { SchemaModel } from '../../../engine/schema/model.js';
import type { GqlResult } from './engine-harness.js';

export interface DirectEngine {
  readonly graph: Graph;
  readonly model: SchemaModel;
  gql(query: string, variables?: Record<string, unknown>): Promise<GqlResult>;
}

export function openDirect(sdl: string): DirectEngine {
  const compiled = compileSchema(sdl, {});
  if (!compiled.ok) throw new Error(`schema did not compile: ${JSON.stringify(compiled.errors)}`);
  const graph = new Graph();
  graph.applySchema(compiled.compiled.model);
  const executor = new Executor(compiled.compiled, graph);
  const preparer = new RequestPreparer(compiled.compiled.apiSchema, { maxQueryTokens: 50_000, maxQueryDepth: 200 });
  return {
    graph,
    model: compiled.compiled.model,
    async gql(query, variables) {
      const request: GraphQLRequest = { method: 'POST', query, variables, headers: {} };
      const prepared = preparer.prepare(request);
      if (!prepared.ok) return JSON.parse(serializeResponse({ errors: prepared.errors })) as GqlResult;
      // As Engine.execute: the direct JSON writer first (exec/write-objects.ts), the general path when it declines.
      const direct = executor.writeDirect(prepared.prepared, request);
      const general = serializeResponse(await executor.run(prepared.prepared, request));
      if (direct !== undefined && direct.toString('utf8') !== general) {
        throw new Error(`direct and general answers differ:\n${direct.toString('utf8')}\n${general}`);
      }
      return JSON.parse(general) as GqlResult;
    },
  };
}
