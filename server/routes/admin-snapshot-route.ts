// POST /admin/snapshot: write a snapshot now (admin key rules like the other /admin* routes). Dgraph has
// no such route; with ACL on it needs a guardian's access token, as the rest of /admin's operations.

import type { Exchange } from '../exchange.js';
import type { Reply } from '../http-types.js';
import type { ResponseMode } from '../negotiate.js';
import { refusals, snapshotReply } from '../responses.js';
import { answering, type Route, type RouteContext } from './route.js';

export const snapshotRoute: Route = {
  scope: 'admin',
  handle: answering(async (exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply> => {
    if (exchange.request.method !== 'POST') throw refusals.invalidMethod();
    const refused = await context.engine.guardianRefusal(exchange.request.headers);
    if (refused !== undefined) throw refusals.notGuardian(refused);
    const result = await context.engine.snapshot();
    if (!result.ok) context.log.warn('snapshot on demand failed', { error: result.message });
    else context.log.info('snapshot on demand', { lsn: result.lsn, by: await context.engine.adminCaller(exchange.request.headers, context.admin) });
    return snapshotReply(result, mode);
  }),
};
