// The server's JSON log lines (pino: `level`, `time`, `pid`, `msg`, then the fields) as records, for
// tests that look for one event. Lines that are not JSON (usage errors, `fatal:`) are skipped.

export interface LogRecord {
  readonly level: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export function logRecords(output: string): LogRecord[] {
  const records: LogRecord[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      records.push(JSON.parse(line) as LogRecord);
    } catch {
      // a line cut short by a kill: not a record
    }
  }
  return records;
}

/** The records whose msg is `msg` (or matches it) and that carry every field of `fields` with that value. */
export function findLogs(output: string, msg: string | RegExp, fields: Readonly<Record<string, unknown>> = {}): LogRecord[] {
  return logRecords(output).filter(
    (record) => (typeof msg === 'string' ? record.msg === msg : msg.test(record.msg)) && Object.entries(fields).every(([key, value]) => record[key] === value),
  );
}

/** The first such record, or undefined. */
export function findLog(output: string, msg: string | RegExp, fields: Readonly<Record<string, unknown>> = {}): LogRecord | undefined {
  return findLogs(output, msg, fields)[0];
}
