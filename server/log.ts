// Levelled, structured logging: one line per event, `<time> <level> <message> key=value ...`.
// Info and debug go to stdout, warnings and errors to stderr. Never pass request bodies or secrets.

export const logLevels = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof logLevels)[number];

export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

export interface Logger {
  readonly level: LogLevel;
  /** Changes the level from now on (/admin `config(input: {logLevel})`). */
  setLevel(level: LogLevel): void;
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  enabled(level: LogLevel): boolean;
}

type Write = (line: string) => void;

const toStdout: Write = (line) => process.stdout.write(line);
const toStderr: Write = (line) => process.stderr.write(line);

export function isLogLevel(value: string): value is LogLevel {
  return (logLevels as readonly string[]).includes(value);
}

/** A logger that prints events at `level` and above (error is the most severe). */
export function createLogger(level: LogLevel, out: Write = toStdout, err: Write = toStderr): Logger {
  let current = level;
  let threshold = logLevels.indexOf(level);
  const enabled = (at: LogLevel): boolean => logLevels.indexOf(at) <= threshold;
  const emit = (at: LogLevel, message: string, fields?: LogFields): void => {
    if (!enabled(at)) return;
    const line = formatLine(new Date().toISOString(), at, message, fields);
    (at === 'error' || at === 'warn' ? err : out)(line);
  };
  return {
    get level() {
      return current;
    },
    setLevel(next) {
      current = next;
      threshold = logLevels.indexOf(next);
    },
    enabled,
    error: (message, fields) => emit('error', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    info: (message, fields) => emit('info', message, fields),
    debug: (message, fields) => emit('debug', message, fields),
  };
}

function formatLine(time: string, level: LogLevel, message: string, fields?: LogFields): string {
  let line = `${time} ${level} ${oneLine(message)}`;
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value !== undefined) line += ` ${key}=${formatValue(value)}`;
  }
  return line + '\n';
}

function formatValue(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
