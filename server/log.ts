// Levelled, structured logging through pino: one JSON object per line (`level`, `time`, `pid`, `msg`,
// then the fields), or readable lines (pino-pretty) for a person at a terminal. Writes go through an
// async destination (sonic-boom), so log I/O never blocks the event loop; `flush` before exiting.
// Never pass request bodies or secrets: the redact paths are a second line of defence, not the first.

import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import { build as prettyStream } from 'pino-pretty';

export const logLevels = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof logLevels)[number];

export const logFormats = ['json', 'pretty'] as const;
export type LogFormat = (typeof logFormats)[number];

export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

export interface Logger {
  readonly level: LogLevel;
  /** Changes the level from now on (/admin `config(input: {logLevel})`). */
  setLevel(level: LogLevel): void;
  /** Told of every level change (a writer's replica threads follow it: server/threads/). */
  onLevelChange(listener: (level: LogLevel) => void): void;
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  enabled(level: LogLevel): boolean;
  /** Writes out what the async destination still holds (before process.exit). */
  flush(): void;
}

export interface LoggerOptions {
  /** Undefined: pretty when stdout is a terminal, else JSON. */
  readonly format?: LogFormat | undefined;
  /** Where lines go instead of stdout (tests). */
  readonly stream?: DestinationStream;
}

/**
 * Field names whose values are secrets. Top-level only: events carry flat fields, and a wildcard path
 * (`*.password`) made every line about four times dearer (a micro-measure of the request line).
 */
const secretKeys = ['password', 'secret', 'token', 'accessJWT', 'refreshJWT', 'authorization', 'x-auth-token', 'x-service-accesstoken', 'x-dgraph-accesstoken'];
const redactPaths = secretKeys.map((key) => `["${key}"]`);

export function isLogLevel(value: string): value is LogLevel {
  return (logLevels as readonly string[]).includes(value);
}

export function isLogFormat(value: string): value is LogFormat {
  return (logFormats as readonly string[]).includes(value);
}

/** The format when none is asked for: readable at a terminal, JSON for machines. */
export function defaultLogFormat(isTerminal: boolean): LogFormat {
  return isTerminal ? 'pretty' : 'json';
}

/** A logger that prints events at `level` and above (error is the most severe). */
export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const format = options.format ?? defaultLogFormat(process.stdout.isTTY === true);
  const destination = options.stream ?? pino.destination({ dest: 1, sync: false });
  const out = format === 'pretty' ? prettyStream({ destination, colorize: process.stdout.isTTY === true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l', singleLine: true, sync: options.stream !== undefined }) : destination;
  const logger: Pino<never, false> = pino(
    {
      level,
      base: { pid: process.pid },
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: redactPaths, censor: '[redacted]' },
    },
    out,
  );
  const flush = (): void => {
    if ('flushSync' in destination && typeof destination.flushSync === 'function') {
      try {
        (destination.flushSync as () => void)();
      } catch {
        // not ready yet (nothing written) or already closed: nothing to flush
      }
    }
  };
  return {
    get level() {
      return logger.level as LogLevel;
    },
    setLevel(next) {
      logger.level = next;
    },
    onLevelChange(listener) {
      logger.on('level-change', (level) => listener(level as LogLevel));
    },
    enabled: (at) => logger.isLevelEnabled(at),
    error: (message, fields) => logger.error(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    info: (message, fields) => logger.info(fields ?? {}, message),
    debug: (message, fields) => logger.debug(fields ?? {}, message),
    flush,
  };
}
