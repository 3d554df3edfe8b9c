// Types of console-window.mjs (a plain Node script, since `npm start` runs before any build), for the tests.
import type { ChildProcess } from 'node:child_process';

export interface ConsoleWindow {
  browser: ChildProcess | null;
  /** Set by the caller: a fresh one-time link for a second launch. */
  retryUrl: (() => Promise<string>) | null;
  kill(signal?: NodeJS.Signals): void;
}

export function openConsoleWindow(
  url: string,
  options?: {
    say?: (line: string) => void;
    onExit?: () => void;
    chromium?: string;
    env?: NodeJS.ProcessEnv;
    uid?: number;
  },
): ConsoleWindow | null;
