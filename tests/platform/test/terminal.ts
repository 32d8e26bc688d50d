import { spawn } from 'node:child_process';
import { repoRoot, type Running } from '@svc/testkit';

export interface InTerminal extends Running {
  /** Types keys at the terminal: '\u0003' is Ctrl-C, which the terminal turns into SIGINT for its foreground group. */
  press(keys: string): void;
}

// Colours and cursor controls, and the terminal's carriage returns: what a person sees, as text.
const CONTROLS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]|\r`, 'g');

/**
 * `command` run by a shell in a pseudo-terminal, as a person runs it: util-linux `script` gives it
 * one, so `process.stdout.isTTY` is true in every process it starts, and keys typed here reach it
 * through the terminal's line discipline. `output()` is what the terminal showed, without colours.
 */
export function runInTerminal(command: string, env: NodeJS.ProcessEnv): InTerminal {
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    env,
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out.replace(CONTROLS, ''), exited, press: (keys) => child.stdin!.write(keys) };
}
