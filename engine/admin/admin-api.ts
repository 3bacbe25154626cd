// The /admin GraphQL resolvers (admin-schema.ts). Not a hot path, so they run on plain graphql-js.
// Answers and error texts follow Dgraph's graphql/admin/*.go; a resolver failure reads
// `resolving <field> failed because <reason>` (resolve.EmptyResult), which executeAdmin keeps.

import type { AdminHost, HealthInfo, SchemaError, SchemaUpdateResult } from '../api.js';
import type { AdminContext } from './execute-admin.js';
import type { TaskList } from './task-list.js';

/** What the admin resolvers need from the engine. */
export interface AdminBackend {
  currentSchema(): { readonly schema: string; readonly generatedSchema: string } | null;
  updateSchema(sdl: string): Promise<SchemaUpdateResult>;
  health(address: string): HealthInfo;
  setDraining(enable: boolean): void;
  /** Stored predicates (tablets in Dgraph's terms), the highest node id and the last commit. */
  storeState(): { readonly predicates: readonly string[]; readonly maxUid: number; readonly lastCommit: number };
  /** The last log record applied (0 without a log). */
  readonly lsn: number;
  /** The state digest (a walk of the store: computed only when asked for). */
  digest(): string;
}

/** The uid Dgraph shows for the stored schema node; stable for the life of the data. */
const schemaNodeId = '0x1';

/** A resolver error in Dgraph's admin wording. */
export class AdminError extends Error {
  constructor(field: string, reason: string) {
    super(`resolving ${field} failed because ${reason}`);
  }
}

const success = (message: string): { code: string; message: string } => ({ code: 'Success', message });

export function adminRootValue(backend: AdminBackend, host: AdminHost, tasks: TaskList): Record<string, unknown> {
  return {
    getGQLSchema: () => {
      const current = backend.currentSchema();
      return current === null ? null : { id: schemaNodeId, ...current };
    },
    health: () => [backend.health(host.address)],
    state: () => membershipState(backend, host.address),
    config: (args: { input?: { logLevel?: string | null } }) => (args.input === undefined ? { logLevel: host.logLevel() } : updateConfig(host, args.input)),
    task: ({ input }: { input: { id: string } }) => {
      const found = tasks.status(input.id);
      if (found !== undefined) return found;
      // Dgraph's wording: errors.Wrapf around strconv.ParseUint's error.
      throw new AdminError('task', `invalid task ID: ${input.id}: strconv.ParseUint: parsing ${JSON.stringify(input.id)}: invalid syntax`);
    },
    updateGQLSchema: async ({ input }: { input: { set: { schema: string } } }, context: AdminContext) => {
      const result = await backend.updateSchema(input.set.schema);
      if (!result.ok) throw new AdminError('updateGQLSchema', renderSchemaErrors(result.errors));
      if (result.lsn !== undefined) context.lsn = result.lsn;
      return { gqlSchema: { id: schemaNodeId, schema: result.schema, generatedSchema: result.generatedSchema } };
    },
    export: ({ input }: { input: ExportInput }) => runExport(host, tasks, input),
    draining: ({ enable }: { enable?: boolean | null }) => {
      // Dgraph reads a missing or null `enable` as false.
      const on = enable === true;
      backend.setDraining(on);
      return { response: success(`draining mode has been set to ${String(on)}`) };
    },
    shutdown: () => {
      host.shutdown();
      return { response: success('Server is shutting down') };
    },
  };
}

/** `config` is both a query field (no arguments) and a mutation field (`input`); graphql-js shares one root value. */
function updateConfig(host: AdminHost, input: { logLevel?: string | null }): { response: { code: string; message: string } } {
  if (input.logLevel !== undefined && input.logLevel !== null) {
    const refused = host.setLogLevel(input.logLevel);
    if (refused !== undefined) throw new AdminError('config', refused);
  }
  return { response: success('Config updated successfully') };
}

interface ExportInput {
  readonly format?: string | null;
  readonly namespace?: number | null;
  readonly destination?: string | null;
}

async function runExport(host: AdminHost, tasks: TaskList, input: ExportInput): Promise<{ response: { code: string; message: string }; taskId: string }> {
  const format = (input.format ?? '').trim().toLowerCase();
  if (format !== '' && format !== 'json') throw new AdminError('export', `invalid export format: ${input.format ?? ''} (this service exports "json" only)`);
  if (input.destination !== undefined && input.destination !== null && input.destination !== '') {
    throw new AdminError('export', 'export destination is not supported: exports are written into the data directory (<data-dir>/export)');
  }
  if (typeof input.namespace === 'number' && input.namespace > 0) {
    throw new AdminError('export', `namespace ${input.namespace} does not exist (this service has one namespace, 0)`);
  }
  const taskId = tasks.start('Export');
  try {
    const file = await host.exportData(taskId);
    tasks.finish(taskId, 'Success');
    return { response: success(`Export completed with ID ${taskId}: ${file}`), taskId };
  } catch (error) {
    tasks.finish(taskId, 'Failed');
    throw new AdminError('export', error instanceof Error ? error.message : String(error));
  }
}

/** Dgraph's MembershipState for a cluster of one: group 1 holds every predicate, this node leads it. */
function membershipState(backend: AdminBackend, address: string): Record<string, unknown> {
  const { predicates, maxUid, lastCommit } = backend.storeState();
  const now = Math.floor(Date.now() / 1000);
  const member = { id: 1, groupId: 1, addr: address, leader: true, amDead: false, lastUpdate: now, clusterInfoOnly: false, forceGroupId: false };
  const tablets = predicates.map((predicate) => ({ groupId: 1, predicate, force: false, space: 0, remove: false, readOnly: false, moveTs: 0 }));
  return {
    counter: lastCommit,
    groups: [{ id: 1, members: [member], tablets, snapshotTs: lastCommit, checksum: 0 }],
    zeros: [],
    maxUID: maxUid,
    maxNsID: 0,
    maxTxnTs: lastCommit,
    maxRaftId: 1,
    removed: [],
    cid: '',
    namespaces: [0],
    // Two fields Dgraph's state does not have (replicas of one log compare them); the digest only when asked.
    digest: () => backend.digest(),
    lsn: backend.lsn,
  };
}

/** gqlparser's `List.Error()` layout: `input:<line>: <message>\n` per error. */
export function renderSchemaErrors(errors: readonly SchemaError[]): string {
  return errors.map((e) => `${schemaErrorPrefix(e)}${e.message}\n`).join('');
}

function schemaErrorPrefix(error: SchemaError): string {
  const line = error.locations?.[0]?.line;
  return line === undefined ? 'input: ' : `input:${line}: `;
}
