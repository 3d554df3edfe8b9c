/**
 * The console's own origin, `app://console`, instead of `file://` (Electron's security checklist, item 18):
 * under file:// every page may read any file the user can, and all of them share one origin. This scheme serves
 * the files of the built renderer (dist/renderer) and nothing else: no path outside that folder, no symlink out
 * of it, no method but GET and HEAD, no request started by another origin.
 */
import { realpath, readFile } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { CustomScheme, Protocol } from 'electron';

/** The scheme, host and origin the console is loaded from. */
const APP_SCHEME = 'app';
const APP_HOST = 'console';
const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The URL the window loads, and the only top frame the IPC bridge serves. */
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * `standard` gives the scheme real origins (so 'self' in the CSP, relative URLs and storage work as on https),
 * `secure` makes it a secure context; fetch is allowed for the renderer's own files. No `bypassCSP`, no
 * `corsEnabled` (no other origin reads from it), no service workers.
 */
const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * The file an `app://console/…` URL names inside `rendererDir`, or null when the URL is not ours or its path
 * leaves the folder (`..`, encoded `%2e%2e` or `%2f`, a NUL, a backslash). `/` is index.html.
 */
export function appFilePath(rendererDir: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL at all, so not one of ours: the caller answers 404.
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host.toLowerCase() !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    // A malformed %-escape names no file.
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  if (path === '/' || path === '') path = '/index.html';
  const root = resolve(rendererDir);
  const file = resolve(root, `.${path}`);
  return inside(root, file) ? file : null;
}

/** The Content-Type for a file, by extension; unknown kinds are served as bytes, never sniffed. */
function contentType(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** What the handler needs besides the request: where the renderer is, and the policy to send with documents. */
export interface AppProtocolOptions {
  rendererDir: string;
  contentSecurityPolicy: string;
}

function refuse(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** Answers one `app://` request: the file, or 403/404/405 (never a file from outside the renderer build). */
export async function serveAppRequest(request: Request, options: AppProtocolOptions): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'Method not allowed');
  // Set by Electron when web content made the request; a page of another origin has no business here.
  const initiator = (request as Request & { initiatorOrigin?: string }).initiatorOrigin;
  if (initiator !== undefined && initiator !== APP_ORIGIN) return refuse(403, 'Forbidden');
  const file = appFilePath(options.rendererDir, request.url);
  if (!file) return refuse(404, 'Not found');
  let body: Buffer;
  try {
    // A symlink inside the folder must not lead out of it.
    const [root, real] = await Promise.all([realpath(options.rendererDir), realpath(file)]);
    if (!inside(root, real)) return refuse(404, 'Not found');
    body = await readFile(real);
  } catch {
    // No such file in the console's build (or unreadable): the page asked for something that is not there.
    return refuse(404, 'Not found');
  }
  const type = contentType(file);
  const headers: Record<string, string> = {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  };
  if (type.startsWith('text/html')) headers['content-security-policy'] = options.contentSecurityPolicy;
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}

/** Before the app is ready: makes `app:` a standard, secure scheme (it cannot be done later). */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

/** Once the app is ready: serves the renderer build on `app://console/`. */
export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, options: AppProtocolOptions): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, options));
}
