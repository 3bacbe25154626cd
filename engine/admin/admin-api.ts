// The /admin GraphQL API (getGQLSchema, updateGQLSchema, health). Not a hot path, so it runs on
// plain graphql-js with resolvers over a small fixed schema.

import { buildSchema, execute, type GraphQLSchema } from 'graphql';
import type { HealthInfo, SchemaError, SchemaUpdateResult } from '../api.js';

const adminSdl = /* GraphQL */ `
  type GQLSchema {
    id: ID!
    schema: String!
    generatedSchema: String!
  }
  type UpdateGQLSchemaPayload {
    gqlSchema: GQLSchema
  }
  input GQLSchemaPatch {
    schema: String!
  }
  input UpdateGQLSchemaInput {
    set: GQLSchemaPatch!
  }
  type NodeState {
    instance: String
    address: String
    status: String
    group: String
    version: String
    uptime: Int
    lastEcho: Int
    ongoing: [String]
    indexing: [String]
    ee_features: [String]
  }
  type Query {
    getGQLSchema: GQLSchema
    health: [NodeState]
  }
  type Mutation {
    updateGQLSchema(input: UpdateGQLSchemaInput!): UpdateGQLSchemaPayload
  }
`;

export const adminSchema: GraphQLSchema = buildSchema(adminSdl);

/** What the admin resolvers need from the engine. */
export interface AdminBackend {
  currentSchema(): { readonly schema: string; readonly generatedSchema: string } | null;
  updateSchema(sdl: string): Promise<SchemaUpdateResult>;
  health(): HealthInfo;
}

/** The uid Dgraph shows for the stored schema node; stable for the life of the data. */
const schemaNodeId = '0x1';

export function adminRootValue(backend: AdminBackend): Record<string, unknown> {
  return {
    getGQLSchema: () => {
      const current = backend.currentSchema();
      return current === null ? null : { id: schemaNodeId, ...current };
    },
    health: () => [backend.health()],
    updateGQLSchema: async ({ input }: { input: { set: { schema: string } } }) => {
      const result = await backend.updateSchema(input.set.schema);
      if (!result.ok) throw new Error(`resolving updateGQLSchema failed because ${renderSchemaErrors(result.errors)}`);
      return { gqlSchema: { id: schemaNodeId, schema: result.schema, generatedSchema: result.generatedSchema } };
    },
  };
}

/** gqlparser's `List.Error()` layout: `input:<line>: <message>\n` per error. */
export function renderSchemaErrors(errors: readonly SchemaError[]): string {
  return errors.map((e) => `${schemaErrorPrefix(e)}${e.message}\n`).join('');
}

export function schemaErrorPrefix(error: SchemaError): string {
  const line = error.locations?.[0]?.line;
  return line === undefined ? 'input: ' : `input:${line}: `;
}

export { execute as executeAdmin };
