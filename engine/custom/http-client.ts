// The only module that imports undici: sends outgoing custom-logic calls through a keep-alive,
// connection-pooling agent (its dispatch API: no response streams). Redirects are never followed (a 3xx is just a non-2xx status), each call
// has a timeout and a response-size cap, and with `denyPrivate` the resolved address (IP literals
// included) must not be private, loopback or link-local. The service's own address and port are always
// refused: IP literals before connecting, names by the peer address of the connected socket (nothing
// is sent on it).

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { isPrivateAddress, isSelfAddress, SELF_DENIED, type SelfAddress } from './address-guard.js';
import type { CallLimits, CallOutcome, OutboundCall } from './outbound.js';

const userAgent = 'Go-http-client/1.1';

class DeniedAddressError extends Error {
  constructor(readonly detail = 'destination address not allowed') {
    super(detail);
  }
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error !== null) return callback(error, '', 0);
    const allowed = addresses.filter((a) => !isPrivateAddress(a.address));
    if (allowed.length === 0) return callback(new DeniedAddressError(), '', 0);
    if (options.all === true) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    const first = allowed[0] as LookupAddress;
    return callback(null, first.address, first.family);
  });
};

const agents = new Map<string, Agent>();

function agentFor(limits: CallLimits): Agent {
  const { denyPrivate, self } = limits;
  const key = `${String(denyPrivate)}|${self === undefined ? '' : `${self.port}|${self.addresses.join(',')}`}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    const connector = buildConnector(denyPrivate ? { lookup: guardedLookup } : {});
    agent = new Agent({ keepAliveTimeout: 4_000, connections: 128, connect: self === undefined ? connector : refusingSelf(connector, self) });
    agents.set(key, agent);
  }
  return agent;
}

/** Drops a connection whose peer turns out to be this service (a name that resolved to it). */
function refusingSelf(connector: buildConnector.connector, self: SelfAddress): buildConnector.connector {
  return (options, callback) =>
    connector(options, (error, socket) => {
      if (error !== null) return callback(error, null);
      if (isSelfAddress(self, socket.remoteAddress ?? '', socket.remotePort ?? 0)) {
        socket.destroy();
        return callback(new DeniedAddressError(SELF_DENIED), null);
      }
      return callback(null, socket);
    });
}

/** Closes the pooled connections (on engine close / worker exit). */
export async function closeHttpClient(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close()));
}

/** Sends calls with at most `limits.maxConcurrency` in flight; outcomes in the order of `calls`. */
export async function sendCalls(calls: readonly OutboundCall[], limits: CallLimits): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = new Array<CallOutcome>(calls.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < calls.length) {
      const i = next++;
      outcomes[i] = await sendCall(calls[i] as OutboundCall, limits);
    }
  };
  const lanes = Math.max(1, Math.min(limits.maxConcurrency, calls.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return outcomes;
}

/**
 * One call through the pooled agent's dispatch API: the body is collected from raw chunks (no response
 * stream, no async iteration), which is most of the per-call cost of undici's `request()`.
 */
export function sendCall(call: OutboundCall, limits: CallLimits): Promise<CallOutcome> {
  let url: URL;
  try {
    url = new URL(call.url);
  } catch {
    return Promise.resolve({ ok: false, error: `parse "${call.url}": invalid URL` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve({ ok: false, error: `unsupported protocol scheme "${url.protocol.slice(0, -1)}"` });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (isSelfAddress(limits.self, host, port)) return Promise.resolve({ ok: false, error: `${goOp(call.method)} "${url.origin}${url.pathname}": ${SELF_DENIED}` });
    if (limits.denyPrivate && isPrivateAddress(host)) {
      return Promise.resolve({ ok: false, error: `${goOp(call.method)} "${url.origin}${url.pathname}": destination address not allowed` });
    }
  }
  const headers: Record<string, string> = { 'user-agent': userAgent, 'accept-encoding': 'identity' };
  for (const [name, value] of call.headers) headers[name] = value;
  return new Promise<CallOutcome>((resolve) => {
    const tooLarge = (): CallOutcome => ({ ok: false, error: `${goOp(call.method)} "${url.origin}${url.pathname}": response body larger than ${limits.maxResponseBytes} bytes` });
    let settled = false;
    let timedOut = false;
    let abort: ((reason?: Error) => void) | undefined;
    const finish = (outcome: CallOutcome, stop?: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (stop === true) abort?.(new Error('custom call finished early'));
      resolve(outcome);
    };
    // One deadline for connect + headers + body, as Go's Client.Timeout.
    const timer = setTimeout(() => {
      timedOut = true;
      finish({ ok: false, error: describe(new Error('timeout'), call, url, true) }, true);
    }, limits.timeoutMs);
    let status = 0;
    const chunks: Buffer[] = [];
    let size = 0;
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortRequest) {
        abort = abortRequest;
        if (settled) abortRequest(new Error('custom call finished early'));
      },
      onHeaders(statusCode, rawHeaders) {
        status = statusCode;
        if (declaredLength(rawHeaders) > limits.maxResponseBytes) finish(tooLarge(), true);
        return true;
      },
      onData(chunk) {
        size += chunk.length;
        if (size > limits.maxResponseBytes) finish(tooLarge(), true);
        else chunks.push(chunk);
        return true;
      },
      onComplete() {
        finish({ ok: true, status, body: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, size).toString('utf8') });
      },
      onError(error) {
        finish({ ok: false, error: describe(error, call, url, timedOut) });
      },
    };
    try {
      agentFor(limits).dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: call.method,
          headers,
          ...(call.body === undefined ? {} : { body: call.body }),
          headersTimeout: limits.timeoutMs,
          bodyTimeout: limits.timeoutMs,
        },
        handler,
      );
    } catch (error) {
      finish({ ok: false, error: describe(error, call, url, false) });
    }
  });
}

/** The Content-Length of raw header pairs (NaN when absent). */
function declaredLength(rawHeaders: readonly (Buffer | string)[] | null): number {
  if (rawHeaders === null) return NaN;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (String(rawHeaders[i]).toLowerCase() === 'content-length') return Number(String(rawHeaders[i + 1]));
  }
  return NaN;
}

/** A Go-like one-line description of a transport failure (no secrets: headers are never included). */
/** Go's text for a call past its deadline (the end of every timed-out call's error). */
const deadlineExceeded = 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';

/** The method as Go's url.Error names the operation: `Post "…": …` (first letter upper, the rest lower). */
function goOp(method: string): string {
  return method.charAt(0) + method.slice(1).toLowerCase();
}

/** Whether a failed call ran out of time (GET /metrics counts these apart). */
export function timedOut(outcome: CallOutcome): boolean {
  return !outcome.ok && outcome.error.endsWith(deadlineExceeded);
}

function describe(error: unknown, call: OutboundCall, url: URL, timedOut: boolean): string {
  const where = `${goOp(call.method)} "${url.origin}${url.pathname}"`;
  if (timedOut) return `${where}: ${deadlineExceeded}`;
  const denied = error instanceof DeniedAddressError ? error : error instanceof Error && error.cause instanceof DeniedAddressError ? error.cause : undefined;
  if (denied !== undefined) return `${where}: ${denied.detail}`;
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return `${where}: dial tcp ${url.host}: connect: connection refused`;
  if (code === 'ENOTFOUND') return `${where}: dial tcp: lookup ${url.hostname}: no such host`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `${where}: ${deadlineExceeded}`;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return `${where}: EOF`;
  const message = error instanceof Error ? error.message : String(error);
  return `${where}: ${message.split('\n')[0] ?? 'request failed'}`;
}
