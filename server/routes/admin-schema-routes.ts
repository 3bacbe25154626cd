// /admin/schema (upload with POST/PUT, read back with GET) and /admin/schema/validate (REFERENCE §11.3).
// Any request content type is accepted for uploads (curl --data-binary sends form-urlencoded), gzip too.

import { renderSchemaErrors, type SchemaError } from '../../engine/index.js';
import { readBodyText } from '../body-reader.js';
import type { Exchange } from '../exchange.js';
import type { Reply } from '../http-types.js';
import type { ResponseMode } from '../negotiate.js';
import { currentSchemaReply, refusals, schemaUpdateReply, schemaValidationReply } from '../responses.js';
import { answering, type Route, type RouteContext } from './route.js';

/** Where `updateGQLSchema` sits in Dgraph's internal admin query; part of its error text. */
const adminQueryLocation = ' (Locations: [{Line: 3, Column: 4}])';

const uploadMethods = new Set(['POST', 'PUT']);

export const schemaRoute: Route = {
  scope: 'admin',
  handle: answering(async (exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply> => {
    // The body is read from now on: uWS hands it only to a reader attached before this callback returns,
    // and verifying a token may wait (a first request waited for its body forever).
    const body = exchange.request.method === 'GET' ? undefined : readSchemaBody(exchange, context);
    body?.catch(() => undefined); // its failure is answered below, or not at all when the token is refused
    // With ACL on, reading (getGQLSchema: the text holds the schema's secrets) and uploading
    // (updateGQLSchema, which Dgraph runs for this route) need a guardian's token.
    const refused = await context.engine.guardianRefusal(exchange.request.headers);
    if (body === undefined) {
      return refused === undefined ? currentSchemaReply(context.engine.currentSchema()?.schema, mode) : schemaUpdateReply(`resolving getGQLSchema failed because ${refused}`, mode);
    }
    const sdl = await body;
    if (refused !== undefined) {
      context.log.warn('schema update refused: not a guardian');
      return schemaUpdateReply(`resolving updateGQLSchema failed because ${refused}${adminQueryLocation}`, mode);
    }
    const result = await context.engine.updateSchema(sdl);
    if (result.ok) {
      context.log.info('schema updated', { counter: context.engine.probe().schemaUpdateCounter, by: await context.engine.adminCaller(exchange.request.headers, context.admin) });
      return schemaUpdateReply(undefined, mode);
    }
    // The count only: an error may quote the schema's text, and with it a # Service.Secret.
    context.log.warn('schema update failed', { errors: result.errors.length });
    return schemaUpdateReply(`resolving updateGQLSchema failed because ${renderSchemaErrors(result.errors)}${adminQueryLocation}`, mode);
  }),
};

export const validateSchemaRoute: Route = {
  scope: 'admin',
  handle: answering(async (exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply> => {
    const sdl = await readSchemaBody(exchange, context);
    const errors = await context.engine.validateSchema(sdl);
    return schemaValidationReply(errors.map(renderOne), mode);
  }),
};

async function readSchemaBody(exchange: Exchange, context: RouteContext): Promise<string> {
  if (!uploadMethods.has(exchange.request.method)) throw refusals.invalidMethod();
  return readBodyText(exchange, context.config.maxBodyBytes);
}

function renderOne(error: SchemaError): string {
  return renderSchemaErrors([error]).replace(/\n$/, '');
}
