// Argument parsing shared by the offline tools: `--help` prints the help and exits 0, a bad option or a
// missing file prints the usage line and exits 2 (as the server itself does).

import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CliArgs<T extends Options> {
  readonly values: ReturnType<typeof parseArgs<{ options: T; allowPositionals: true }>>['values'];
  readonly file: string;
}

/** Parsed arguments, or undefined once the help or a usage error has been printed (exit code set). */
export function cliArgs<T extends Options>(argv: readonly string[], options: T, usage: string, help: string): CliArgs<T> | undefined {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
    process.exitCode = 2;
    return undefined;
  }
  if ((parsed.values as { help?: boolean }).help === true) {
    process.stdout.write(`${usage}\n\n${help}\n`);
    return undefined;
  }
  const file = parsed.positionals[0];
  if (file === undefined || parsed.positionals.length > 1) {
    process.stderr.write(`error: ${file === undefined ? 'no file given' : `unexpected argument: ${parsed.positionals[1] ?? ''}`}\n${usage}\n`);
    process.exitCode = 2;
    return undefined;
  }
  return { values: parsed.values as CliArgs<T>['values'], file };
}
