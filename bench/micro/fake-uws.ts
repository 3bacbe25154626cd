// A stand-in for uWebSockets.js's native binding, enough for server/uws-transport.ts to serve through
// it in process: a POST is handed to the app's handler with fresh header strings (as the binding makes
// them), its body as one ArrayBuffer chunk, and the answer's bytes come back as a string.

import type * as Uws from 'uWebSockets.js';

type Handler = (res: Uws.HttpResponse, req: Uws.HttpRequest) => void;

export interface FakeUws {
  readonly binding: typeof Uws;
  /** Sends a JSON POST; resolves with the body the server ended the response with. */
  post(url: string, body: string): Promise<string>;
}

export function fakeUws(): FakeUws {
  let handler: Handler | undefined;
  const app = {
    any: (_pattern: string, h: Handler) => {
      handler = h;
      return app;
    },
    // WebSocket routes (subscriptions) are registered but never used here.
    ws: () => app,
    listen: (_host: string, _port: number, done: (socket: unknown) => void) => done({}),
  };
  const binding = {
    App: () => app,
    getParts: () => undefined, // marks a native binding
    _cfg: () => undefined,
    us_socket_local_port: () => 1,
    us_listen_socket_close: () => undefined,
  } as unknown as typeof Uws;
  // Header names and values are new strings per request, as the binding's are (never internalized).
  const names = Buffer.from('hostcontent-typecontent-lengthapplication/json127.0.0.1', 'latin1');
  const post = (url: string, body: string): Promise<string> =>
    new Promise((resolve, reject) => {
      if (handler === undefined) throw new Error('no handler: the server did not listen');
      const bytes = Buffer.from(body);
      const length = String(bytes.length);
      let onData: ((chunk: ArrayBuffer, isLast: boolean) => void) | undefined;
      const decoder = new TextDecoder();
      const req = {
        forEach: (visit: (key: string, value: string) => void) => {
          visit(names.toString('latin1', 0, 4), names.toString('latin1', 46, 55));
          visit(names.toString('latin1', 4, 16), names.toString('latin1', 30, 46));
          visit(names.toString('latin1', 16, 30), length.slice(0));
        },
        getHeader: () => '',
        getMethod: () => names.toString('latin1', 0, 0) + 'post',
        getUrl: () => url.slice(0),
        getQuery: () => undefined,
      };
      const res = {
        onAborted: () => res,
        onData: (h: typeof onData) => {
          onData = h;
          return res;
        },
        cork: (f: () => void) => {
          f();
          return res;
        },
        writeStatus: () => res,
        writeHeader: () => res,
        end: (answer?: string | Uint8Array) => {
          resolve(typeof answer === 'string' ? answer : answer === undefined ? '' : decoder.decode(answer));
          return res;
        },
        pause: () => undefined,
        resume: () => undefined,
      };
      handler(res as unknown as Uws.HttpResponse, req as unknown as Uws.HttpRequest);
      if (onData === undefined) reject(new Error('the server did not read the body'));
      else onData(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), true);
    });
  return { binding, post };
}
