// One-off HTTP calls for set-up and answer checks (not for load): fetch, JSON in and out.

export interface Reply {
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
}

export async function postJson(url: string, body: unknown, headers: Readonly<Record<string, string>> = {}): Promise<Reply> {
  return post(url, JSON.stringify(body), 'application/json', headers);
}

export async function post(url: string, body: string, contentType: string, headers: Readonly<Record<string, string>> = {}): Promise<Reply> {
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the caller reports the text
  }
  return { status: response.status, text, json };
}

/** `data` of a GraphQL reply, or an error naming what came back instead. */
export function dataOf(reply: Reply): unknown {
  const json = reply.json;
  if (reply.status !== 200 || typeof json !== 'object' || json === null) throw new Error(`HTTP ${reply.status}: ${reply.text.slice(0, 300)}`);
  const record = json as Record<string, unknown>;
  if (Array.isArray(record['errors']) && record['errors'].length > 0) throw new Error(`GraphQL errors: ${JSON.stringify(record['errors']).slice(0, 300)}`);
  return record['data'];
}
