// /admin/schema (upload with POST/PUT, read back with GET) and /admin/schema/validate (REFERENCE §11.3).
// Any request content type is accepted for uploads (curl --data-binary sends form-urlencoded), gzip too.

import { renderSchemaErrors, type SchemaError } from '../../engine/index.js';
import { readBodyText } from '../body-reader.js';
import type { Exchange } from '../exchange.js';
import { HttpError, errorBody, httpMessages } from '../http-error.js';
import type { Reply } from '../http-types.js';
import { contentTypeFor, type ResponseMode } from '../negotiate.js';
import type { Route, RouteContext } from './route.js';

/** Where `updateGQLSchema` sits in Dgraph's internal admin query; part of its error text. */
const adminQueryLocation = ' (Locations: [{Line: 3, Column: 4}])';

const uploadMethods = new Set(['POST', 'PUT']);

export const schemaRoute: Route = {
  scope: 'admin',
  async handle(exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply> {
    if (exchange.request.method === 'GET') return currentSchema(context, mode);
    const sdl = await readSchemaBody(exchange, context);
    const result = await context.engine.updateSchema(sdl);
    if (result.ok) {
      context.log.info('schema updated', { counter: context.engine.probe().schemaUpdateCounter });
      return { status: 200, contentType: contentTypeFor(mode), body: JSON.stringify({ data: { code: 'Success', message: 'Done' } }) };
    }
    const message = `resolving updateGQLSchema failed because ${renderSchemaErrors(result.errors)}${adminQueryLocation}`;
    return { status: mode === 'graphql-response' ? 400 : 200, contentType: contentTypeFor(mode), body: errorBody(message, 'Error') };
  },
};

export const validateSchemaRoute: Route = {
  scope: 'admin',
  async handle(exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply> {
    const sdl = await readSchemaBody(exchange, context);
    const errors = await context.engine.validateSchema(sdl);
    if (errors.length === 0) {
      return { status: 200, contentType: contentTypeFor(mode), body: errorBody('Schema is valid', 'success') };
    }
    const body = JSON.stringify({ errors: errors.map((error) => ({ message: renderOne(error), extensions: { code: 'ErrorInvalidRequest' } })) });
    return { status: 400, contentType: contentTypeFor(mode), body };
  },
};

async function readSchemaBody(exchange: Exchange, context: RouteContext): Promise<string> {
  if (!uploadMethods.has(exchange.request.method)) throw new HttpError(400, httpMessages.invalidMethod, 'ErrorInvalidMethod');
  return readBodyText(exchange, context.config.maxBodyBytes);
}

/** GET /admin/schema: the uploaded text as text/plain, or 404 when there is none. */
function currentSchema(context: RouteContext, mode: ResponseMode): Reply {
  const current = context.engine.currentSchema();
  if (current === null) {
    return { status: 404, contentType: contentTypeFor(mode), body: errorBody('No GraphQL schema has been uploaded', 'ErrorNotFound') };
  }
  return { status: 200, contentType: 'text/plain; charset=utf-8', body: current.schema };
}

function renderOne(error: SchemaError): string {
  return renderSchemaErrors([error]).replace(/\n$/, '');
}
