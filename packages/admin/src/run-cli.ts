import { parseArgs } from 'node:util';
import { apiKeyMaxLimitsFromEnv } from './api-keys.js';
import { COMMANDS } from './commands.js';
import { closest } from './did-you-mean.js';
import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Standard input as text (for `--<secret>-stdin`). */
  stdin?: () => Promise<string>;
  env?: NodeJS.ProcessEnv;
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(16)} ${c.summary}`);
  return `usage: npm run --silent admin -- <command> [flags]    (<command> --help for one command)\n${lines.join('\n')}\n`;
}

/** One command's help: what it does, its flags (required ones marked), where secrets may come from. */
function commandHelp(name: string, command: (typeof COMMANDS)[string]): string {
  const flags = Object.entries(command.options).map(([flag, o]) => {
    const what = o.type === 'boolean' ? '' : o.multiple ? ' VALUE (repeatable)' : ' VALUE';
    const stdin = `${flag}-stdin` in command.options ? `--${flag}-stdin, or ` : '';
    const secret = command.secrets?.[flag] ? `  (or ${stdin}env ${command.secrets[flag]})` : '';
    return `  --${flag}${what}${command.required.includes(flag) ? '  required' : ''}${secret}`;
  });
  return `usage: npm run --silent admin -- ${name} [flags]\n${command.summary}\n${flags.length ? `flags:\n${flags.join('\n')}\n` : ''}Prints one JSON object on stdout; errors are one line on stderr (exit 1 refused, 2 not understood).\n`;
}

/**
 * Parses and runs one command. Exit codes: 0 done (one JSON object on stdout), 1 refused or
 * failed (one line on stderr, nothing changed), 2 not understood (one line on stderr).
 * `connect` is called only once the command line is valid, so typos never touch the database.
 */
export async function runCli(argv: string[], connect: () => Promise<AdminContext & { close(): Promise<void> }>, io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  // Help asked for goes to stdout (it is the answer); a bare call is a mistake, said on stderr.
  if (!name) {
    io.stderr(usage());
    return 2;
  }
  if (name === '--help' || name === 'help' || name === '-h') {
    io.stdout(usage());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    const guess = closest(name, Object.keys(COMMANDS));
    io.stderr(`error: unknown command ${JSON.stringify(name)}${guess ? `; did you mean ${guess}?` : ''} (known: ${Object.keys(COMMANDS).join(', ')})\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(commandHelp(name, command));
    return 0;
  }
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }).values as typeof values;
  } catch (err) {
    // node:util names the unknown option ("Unknown option '--emial'"): suggest the flag it resembles.
    const unknown = /Unknown option '-{1,2}([^']+)'/.exec((err as Error).message)?.[1];
    const guess = unknown ? closest(unknown, Object.keys(command.options)) : undefined;
    // Its first sentence only: what it goes on to suggest is about positional arguments, which no command takes.
    const said = `${(err as Error).message.split(/\.\s|\n/)[0]}.`;
    io.stderr(`error: ${name}: ${said}${guess ? ` Did you mean --${guess}?` : ''}\n`);
    return 2;
  }
  for (const [secret, variable] of Object.entries(command.secrets ?? {})) {
    if (values[`${secret}-stdin`] === true) {
      if (values[secret] !== undefined) {
        io.stderr(`error: ${name}: give --${secret} or --${secret}-stdin, not both\n`);
        return 2;
      }
      values[secret] = (await (io.stdin?.() ?? Promise.resolve(''))).split(/\r?\n/)[0] || undefined;
    } else if (values[secret] === undefined) {
      values[secret] = (io.env ?? process.env)[variable] || undefined;
    }
  }
  const missing = command.required.filter((k) => values[k] === undefined);
  if (missing.length) {
    io.stderr(`error: ${name}: missing ${missing.map((m) => `--${m}`).join(', ')}\n`);
    return 2;
  }
  let ctx: (AdminContext & { close(): Promise<void> }) | undefined;
  try {
    const apiKeyMaxLimits = apiKeyMaxLimitsFromEnv(io.env ?? process.env);
    ctx = await connect();
    const result = await command.run({ apiKeyMaxLimits, ...ctx }, values);
    io.stdout(command.text?.(result, values) ?? `${JSON.stringify(result)}\n`);
    return 0;
  } catch (err) {
    // Only the first line: driver errors go on to print the arguments, secrets included.
    const message = err instanceof AdminError ? err.message : firstLine(err);
    io.stderr(`error: ${name}: ${message}\n`);
    return 1;
  } finally {
    await ctx?.close();
  }
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? (err instanceof Error ? err.name : 'failed')
  );
}
