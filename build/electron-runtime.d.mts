// Types of electron-runtime.mjs (a plain Node script, since `npm start` runs before any build), for the tests.
export type InstallResult = { ok: true } | { ok: false; reason: string };
export type Installer = (options: { root: string; env: NodeJS.ProcessEnv }) => Promise<InstallResult>;

export function findElectron(root: string, env?: NodeJS.ProcessEnv): string | null;
export function installFailureReason(stderr: string, status: number | null): string;
export function runElectronInstaller(options: {
  root: string;
  env?: NodeJS.ProcessEnv;
  stdout?: (text: string) => void;
}): Promise<InstallResult>;
export function ensureElectron(options: {
  root: string;
  env?: NodeJS.ProcessEnv;
  say: (line: string) => void;
  install?: Installer;
}): Promise<{ binary: string; reason?: undefined } | { reason: string; binary?: undefined }>;
export function electronCannotRun(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform, uid?: number): string | null;
export function fallbackLine(reason: string): string;
export function desktopApp(options: {
  root: string;
  env?: NodeJS.ProcessEnv;
  say: (line: string) => void;
  install?: Installer;
  cannotRun?: (env: NodeJS.ProcessEnv) => string | null;
}): Promise<string | null>;
