// Test hooks stay out of production: the production entry (dist/server/main.js) ignores
// SERVICE_IO_FAULTS; only the test-only entry (dist/server/testing/main-with-faults.js) injects them.

import { describe, expect, it } from 'vitest';
import { send } from '../integration/helpers/http.js';
import { addItems, allItems, dirsRemovedAfterEach, itemInput, itemSchema, startOn, startWithFaults } from './crash-helpers.js';

// From the second write on: the first is the log file's header, written at start-up.
const everyLogWriteFails = [{ op: 'write' as const, path: 'wal-', nth: 2, times: 0 }];

describe('test-only fault hooks', () => {
  const dataDir = dirsRemovedAfterEach();

  it('the production entry ignores SERVICE_IO_FAULTS: uploads and mutations are logged and read back', async () => {
    const dir = dataDir();
    const server = await startOn(dir, ['--fsync', 'always'], { SERVICE_IO_FAULTS: JSON.stringify(everyLogWriteFails) });
    const upload = await send(`${server.url}/admin/schema`, { method: 'POST', body: itemSchema });
    expect([upload.status, upload.text]).toEqual([200, '{"data":{"code":"Success","message":"Done"}}']);
    expect(await addItems(server.url, ['a'])).toBe(true);
    expect(await allItems(server.url)).toEqual([itemInput('a')].map(({ key, n, label, parts }) => ({ key, n, label, parts })));
    await server.stop();
  });

  it('the test entry injects them: the schema upload fails to be logged and changes nothing', async () => {
    const dir = dataDir();
    const server = await startWithFaults(dir, ['--fsync', 'always'], everyLogWriteFails);
    const upload = await send(`${server.url}/admin/schema`, { method: 'POST', body: itemSchema });
    const refused =
      'resolving updateGQLSchema failed because input: the schema upload could not be made durable (EIO while writing the mutation log); it was rolled back and not applied\n (Locations: [{Line: 3, Column: 4}])';
    expect([upload.status, upload.json()]).toEqual([200, { errors: [{ message: refused, extensions: { code: 'Error' } }] }]);
    expect((await send(`${server.url}/admin/schema`)).status).toBe(404);
    await server.stop();
  });
});
