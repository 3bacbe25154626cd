// A real server with ACL on (`--acl-secret-file`) over a data directory of its own, for the acl-*
// tests: the secret file, the flags, (re)starting with groot logged in, groot's /admin requests, groups
// and users added (each answer checked whole), users logged in. Requests go through acl-client.ts.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { aclLogin, aclPost, type Body } from './acl-client.js';
import { uploadSchema, uploadSucceeded } from './http.js';
import { makeTempDir, startServer, type ServerProcess } from './server-process.js';

export const aclSecret = 'an-acl-secret-of-at-least-32-bytes!!';

/** A user: name, password, and the groups it is a member of. */
export type AclUser = readonly [name: string, password: string, ...groups: string[]];

export class AclServer {
  /** The temporary directory: the secret file and the data directory. */
  readonly dir: string;
  readonly secretFile: string;
  readonly dataDir: string;
  #server: ServerProcess | undefined;
  /** groot's access token, from the last start. */
  groot = '';

  /** `extraArgs`: flags after the ACL ones (e.g. `--lambda-url`; may be added to before a start). */
  constructor(prefix: string, readonly extraArgs: string[] = []) {
    this.dir = makeTempDir(prefix);
    this.secretFile = join(this.dir, 'hmac-secret');
    this.dataDir = join(this.dir, 'data');
    writeFileSync(this.secretFile, aclSecret);
  }

  get server(): ServerProcess {
    if (this.#server === undefined) throw new Error('the ACL server is not started');
    return this.#server;
  }

  get url(): string {
    return this.server.url;
  }

  /** Starts the server on the data directory (again, after `stop`) and logs groot in. */
  async start(): Promise<ServerProcess> {
    mkdirSync(this.dataDir, { recursive: true });
    const rawArgs = ['--port', '0', '--host', '127.0.0.1', '--data-dir', this.dataDir, '--acl-secret-file', this.secretFile, '--snapshot-interval', '0', ...this.extraArgs];
    this.#server = await startServer({ rawArgs });
    this.groot = await this.login('groot', 'password');
    return this.#server;
  }

  /** Stops the server; the data directory stays for the next start. */
  async stop(): Promise<void> {
    await this.#server?.stop();
  }

  /** Stops the server and removes the directory. */
  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A /graphql request under `token`. */
  as(token: string, query: string, headers: Record<string, string> = {}): Promise<Body> {
    return aclPost(this.url, '/graphql', query, { 'X-Dgraph-AccessToken': token, ...headers });
  }

  /** groot's /admin request. */
  admin(query: string): Promise<Body> {
    return aclPost(this.url, '/admin', query, { 'X-Dgraph-AccessToken': this.groot });
  }

  login(name: string, password: string): Promise<string> {
    return aclLogin(this.url, name, password);
  }

  /** The users' access tokens, in their order. */
  loginAll<const U extends readonly AclUser[]>(users: U): Promise<{ -readonly [K in keyof U]: string }> {
    return Promise.all(users.map(([name, password]) => this.login(name, password))) as Promise<{ -readonly [K in keyof U]: string }>;
  }

  /** Adds the groups (name → its rules, GraphQL input text), then the users. */
  async addGroupsAndUsers(groups: Readonly<Record<string, string>>, users: readonly AclUser[]): Promise<void> {
    const groupInput = Object.entries(groups).map(([name, rules]) => `{name: "${name}", rules: [${rules}]}`);
    expect(await this.admin(`mutation { addGroup(input: [${groupInput.join(', ')}]) { group { name } } }`)).toEqual({ data: { addGroup: { group: Object.keys(groups).map((name) => ({ name })) } } });
    const userInput = users.map(([name, password, ...member]) => `{name: "${name}", password: "${password}", groups: [${member.map((g) => `{name: "${g}"}`).join(', ')}]}`);
    expect(await this.admin(`mutation { addUser(input: [${userInput.join(', ')}]) { user { name } } }`)).toEqual({ data: { addUser: { user: users.map(([name]) => ({ name })) } } });
  }

  /** Uploads the schema as groot. */
  async uploadSchema(schema: string): Promise<void> {
    expect(await uploadSchema(this.url, schema, { 'X-Dgraph-AccessToken': this.groot })).toEqual(uploadSucceeded);
  }
}
