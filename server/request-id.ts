// The one owner of request ids (the request line, an internal error's answer and record, the
// X-Request-Id response header): the client's own id when it is a safe one, else a generated one.

/** Generated ids: a per-process prefix and a counter (no randomness per request). */
const requestIdPrefix = Math.floor(Math.random() * 36 ** 6).toString(36).padStart(6, '0');
let requestCount = 0;

export function nextRequestId(): string {
  return `${requestIdPrefix}-${(++requestCount).toString(36)}`;
}

/**
 * A client's id is kept only when short and plain (letters, digits, `_ . : / + = @ -`, at most 128):
 * it goes into log lines and a response header, so anything else (a line break, quotes, spaces,
 * non-ASCII, a long text) is replaced, never cleaned up and echoed.
 */
const clientIdPattern = /^[\w.:/+=@-]{1,128}$/;

export function requestIdFor(clientId: string | undefined): string {
  return clientId !== undefined && clientIdPattern.test(clientId) ? clientId : nextRequestId();
}
