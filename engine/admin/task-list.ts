// Admin tasks (exports) by id, for the `task(input: {id})` query. Dgraph queues exports and reports
// them here; this service runs them to the end before answering, so a task is seen finished.

export type TaskKind = 'Backup' | 'Export' | 'Unknown';
export type TaskStatus = 'Queued' | 'Running' | 'Failed' | 'Success' | 'Unknown';

interface Task {
  readonly kind: TaskKind;
  status: TaskStatus;
  lastUpdated: string;
}

/** Tasks kept; older ones answer Unknown, as an expired task does in Dgraph. */
const keep = 100;

export class TaskList {
  readonly #tasks = new Map<bigint, Task>();
  #next = 1n;

  start(kind: TaskKind): string {
    const id = this.#next++;
    this.#tasks.set(id, { kind, status: 'Running', lastUpdated: now() });
    for (const old of this.#tasks.keys()) {
      if (this.#tasks.size <= keep) break;
      this.#tasks.delete(old);
    }
    return `0x${id.toString(16)}`;
  }

  finish(id: string, status: TaskStatus): void {
    const task = this.#tasks.get(BigInt(id));
    if (task === undefined) return;
    task.status = status;
    task.lastUpdated = now();
  }

  /** Undefined when `id` is not a number as Go's strconv.ParseUint(id, 0, 64) reads them. */
  status(id: string): { kind: TaskKind; status: TaskStatus; lastUpdated: string } | undefined {
    const parsed = parseGoUint(id);
    if (parsed === undefined) return undefined;
    const task = this.#tasks.get(parsed);
    return task === undefined ? { kind: 'Unknown', status: 'Unknown', lastUpdated: '1970-01-01T00:00:00Z' } : { ...task };
  }
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Base prefixes 0x, 0o, 0b or a leading 0 (octal), as Go's ParseUint with base 0. */
function parseGoUint(text: string): bigint | undefined {
  const body = text.replaceAll('_', '');
  if (!/^(0[xX][0-9a-fA-F]+|0[oO]?[0-7]*|0[bB][01]+|[1-9][0-9]*)$/.test(body)) return undefined;
  const octal = /^0[0-7]+$/.exec(body) === null ? body : `0o${body.slice(1)}`;
  const value = BigInt(octal);
  return value < 2n ** 64n ? value : undefined;
}
