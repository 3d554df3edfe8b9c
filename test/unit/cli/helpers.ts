/** Runs `qk` in-process with captured output. */
import { runCli } from '../../../core/cli/src/run-cli.js';
import { serviceStarter } from '../../../bin/service-starter.js';

/** What one in-process `qk` run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON on success, stderr on failure (with --json). */
  json: unknown;
}

/** Runs one command line with the given environment (nothing inherited from the test process). */
export async function qk(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { HOME: '/nonexistent-home', ...env },
    serviceStarter,
  });
  const text = code === 0 ? stdout : stderr;
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Human output.
  }
  return { code, stdout, stderr, json };
}
