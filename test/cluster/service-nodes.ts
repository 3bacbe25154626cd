// What the cluster suites ask of a service node over HTTP: a GraphQL answer (status 200 checked) and the
// state digest and LSN of /admin `state`; the schema they share; answers made comparable across runs.

import { expect } from 'vitest';
import { postGraphql } from '../integration/helpers/http.js';

export const schema = 'type Task {\n  title: String! @id\n  done: Boolean\n}\n';

export async function post(url: string, query: string, headers: Record<string, string> = {}, path = '/graphql'): Promise<any> {
  const answer = await postGraphql(url, { query }, headers, path);
  expect(answer.status).toBe(200);
  return answer.json();
}

export const state = async (url: string): Promise<{ digest: string; lsn: number }> => (await post(url, '{ state { digest lsn } }', {}, '/admin')).data.state;

/** An answer's text with its `extensions.requestID` (a fresh UUID per mutation) blanked, to compare answers byte for byte. */
export const comparable = (text: string): string => text.replace(/"requestID":"[0-9a-f-]{36}"/, '"requestID":"-"');
