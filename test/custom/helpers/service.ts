// The real server process plus the mock upstream, and small request helpers for the custom-logic tests.

import { postGraphql, send } from '../../integration/helpers/http.js';
import { startServer, type ServerProcess } from '../../integration/helpers/server-process.js';
import { startMockUpstream, type MockUpstream } from './mock-upstream.js';

export interface Rig {
  readonly server: ServerProcess;
  readonly mock: MockUpstream;
  upload(sdl: string): Promise<any>;
  gql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<any>;
  stop(): Promise<void>;
}

export async function startRig(args: readonly string[] = []): Promise<Rig> {
  const [server, mock] = await Promise.all([startServer({ args: [...args] }), startMockUpstream()]);
  return {
    server,
    mock,
    async upload(sdl) {
      const answer = await send(`${server.url}/admin/schema`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: sdl });
      return answer.json();
    },
    async gql(query, variables, headers = {}) {
      return (await postGraphql(server.url, variables === undefined ? { query } : { query, variables }, headers)).json();
    },
    async stop() {
      await Promise.all([server.stop(), mock.close()]);
    },
  };
}

export const uploaded = { data: { code: 'Success', message: 'Done' } } as const;
