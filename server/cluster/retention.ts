// Stream retention bounded by snapshots: every node keeps `{ position, url }` under its node id in the
// JetStream KV bucket `<stream>-nodes` (position: the stream sequence its newest snapshot holds, what a
// restart reads the stream after), and after each put purges the stream below the lowest live entry.
// An entry not put again for the bucket's max age is gone (a node down that long no longer holds
// retention back); a node up puts its entry again well within that age.

import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { DATA_FILE_MODE } from '../../engine/index.js';
import type { Logger } from '../log.js';
import { ClusterLogError } from './jetstream-log.js';

/** What a node's entry holds. */
export interface NodeEntry {
  /** The stream sequence its newest snapshot holds (0: none yet, it needs the stream from 1). */
  readonly position: number;
  /** Its HTTP address, for a peer seeding itself from its snapshot (absent until it listens). */
  readonly url?: string;
}

export interface RetentionOptions {
  readonly stream: string;
  /** How long an entry lives without being put again. */
  readonly maxAgeMs: number;
  readonly dataDir: string;
  readonly log: Logger;
}

const callTimeoutMs = 5_000;
const registerTimeoutMs = 15_000;
/** The file in the data directory holding the node's id (a restart keeps its entry). */
export const nodeIdFile = 'cluster-node-id';

/** A node's id: kept in its data directory, made on its first start. */
export async function nodeId(dataDir: string): Promise<string> {
  const path = join(dataDir, nodeIdFile);
  const kept = await readFile(path, 'utf8').catch(() => '');
  if (/^[0-9a-f-]{36}$/.test(kept.trim())) return kept.trim();
  const id = randomUUID();
  // Renamed in: a torn file would give the node another id (its old entry then ages out).
  await writeFile(`${path}.tmp`, `${id}\n`, { mode: DATA_FILE_MODE, flush: true });
  await rename(`${path}.tmp`, path);
  return id;
}

export class Retention {
  readonly #kv: KV;
  readonly #nc: NatsConnection;
  readonly #id: string;
  readonly #options: RetentionOptions;
  #entry: NodeEntry = { position: 0 };
  /** Puts go one after another, each of the entry as it is then. */
  #putting: Promise<void> = Promise.resolve();
  #closed = false;
  readonly #refresh: NodeJS.Timeout;

  private constructor(kv: KV, nc: NatsConnection, id: string, options: RetentionOptions) {
    this.#kv = kv;
    this.#nc = nc;
    this.#id = id;
    this.#options = options;
    // Well within the max age, so a node that is up keeps its entry even without snapshots.
    this.#refresh = setInterval(() => void this.#put(), Math.max(250, options.maxAgeMs / 4));
    this.#refresh.unref();
  }

  /** Opens the bucket (created when absent, replicas as the stream's) on the log's connection. */
  static async open(nc: NatsConnection, options: RetentionOptions): Promise<Retention> {
    const bucket = `${options.stream}-nodes`;
    try {
      const jsm = await jetstreamManager(nc, { timeout: callTimeoutMs, checkAPI: false });
      const replicas = (await jsm.streams.info(options.stream)).config.num_replicas;
      // Not direct gets: a replica's copy may miss a node that just registered, and a purge must not.
      const kv = await new Kvm(jetstream(nc, { timeout: callTimeoutMs })).create(bucket, { replicas, ttl: options.maxAgeMs, history: 1, allow_direct: false });
      const status = await kv.status();
      if (status.ttl !== options.maxAgeMs) {
        options.log.warn('the cluster node bucket keeps entries for another max age than --cluster-node-max-age (the node that made it set it)', { bucket, maxAgeMs: status.ttl, flag: options.maxAgeMs });
      }
      return new Retention(kv, nc, await nodeId(options.dataDir), options);
    } catch (error) {
      throw new ClusterLogError(`cluster log: could not open the node bucket ${bucket}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  get id(): string {
    return this.#id;
  }

  /**
   * At join, before the stream is read: the position the node's restart would read after, so that no
   * node purges what it still needs before its first snapshot. Rejects when the entry cannot be put.
   */
  async register(position: number): Promise<void> {
    this.#entry = { ...this.#entry, position };
    // A bucket just made has no leader for a second or two: its puts answer 503 meanwhile.
    const deadline = Date.now() + registerTimeoutMs;
    for (;;) {
      try {
        await this.#kv.put(this.#id, JSON.stringify(this.#entry));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  /** The node's HTTP address, once it listens. */
  advertise(url: string): void {
    this.#entry = { ...this.#entry, url };
    void this.#put();
  }

  /** A snapshot holding the stream up to `position` is written: the entry moves up, the stream is purged below the lowest. */
  snapshotWritten(position: number): void {
    this.#entry = { ...this.#entry, position };
    void this.#put();
  }

  /** Every live entry, by node id. */
  async entries(): Promise<Map<string, NodeEntry>> {
    const entries = new Map<string, NodeEntry>();
    for await (const key of await this.#kv.keys()) {
      const stored = await this.#kv.get(key);
      if (stored === null || stored.operation !== 'PUT') continue;
      entries.set(key, parseEntry(key, stored.string()));
    }
    return entries;
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#refresh);
  }

  /** Puts the entry as it is now, then purges; trouble is a warning (the next put tries again). */
  #put(): Promise<void> {
    this.#putting = this.#putting.then(async () => {
      if (this.#closed || this.#nc.isClosed()) return;
      try {
        await this.#kv.put(this.#id, JSON.stringify(this.#entry));
        await this.#purge();
      } catch (error) {
        this.#options.log.warn('cluster retention: could not put this node\'s entry or purge the stream', { stream: this.#options.stream, node: this.#id, error: error instanceof Error ? error.message : String(error) });
      }
    });
    return this.#putting;
  }

  /** Purges the stream below the lowest live position: every node's snapshot holds what goes. */
  async #purge(): Promise<void> {
    const entries = await this.entries();
    if (entries.size === 0) return;
    const lowest = Math.min(...[...entries.values()].map((entry) => entry.position));
    if (!(lowest >= 1)) return;
    const jsm = await jetstreamManager(this.#nc, { timeout: callTimeoutMs, checkAPI: false });
    // `seq`: the messages before it go; the first one a restart from `lowest` reads stays.
    const { purged } = await jsm.streams.purge(this.#options.stream, { seq: lowest + 1 });
    if (purged > 0) this.#options.log.info('cluster stream purged', { stream: this.#options.stream, below: lowest + 1, purged, nodes: entries.size });
  }
}

/** An entry as stored; anything else refuses the purge (never guessed). */
function parseEntry(key: string, text: string): NodeEntry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const entry = value as { position?: unknown; url?: unknown } | undefined;
  if (typeof entry !== 'object' || entry === null || !Number.isSafeInteger(entry.position) || (entry.position as number) < 0 || !(entry.url === undefined || typeof entry.url === 'string')) {
    throw new Error(`node ${key}'s entry is not { position, url }: ${text.slice(0, 200)}`);
  }
  return entry.url === undefined ? { position: entry.position as number } : { position: entry.position as number, url: entry.url };
}
