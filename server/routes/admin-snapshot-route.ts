// POST /admin/snapshot: write a snapshot now (admin key rules like the other /admin* routes).

import type { Exchange } from '../exchange.js';
import { HttpError, errorBody, httpMessages } from '../http-error.js';
import type { Reply } from '../http-types.js';
import { contentTypeFor, type ResponseMode } from '../negotiate.js';
import type { Route, RouteContext } from './route.js';

export const snapshotRoute: Route = {
  scope: 'admin',
  async handle(exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply> {
    if (exchange.request.method !== 'POST') throw new HttpError(400, httpMessages.invalidMethod, 'ErrorInvalidMethod');
    const result = await context.engine.snapshot();
    if (!result.ok) {
      context.log.warn('snapshot on demand failed', { error: result.message });
      return { status: 500, contentType: contentTypeFor(mode), body: errorBody(result.message, 'Error') };
    }
    const { lsn, file, bytes, ms } = result;
    return {
      status: 200,
      contentType: contentTypeFor(mode),
      body: JSON.stringify({ data: { code: 'Success', message: 'Snapshot written', lsn, file, bytes, ms } }),
    };
  },
};
