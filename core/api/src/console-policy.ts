/**
 * The console's Content-Security-Policy, built once for every place the console is delivered: the service's
 * responses at `/`, the Electron app:// responses, and the meta tag of renderer/index.html (the Vite build
 * writes it there). From `default-src 'none'`: the console's own scripts, styles, images and fonts, no inline
 * code, no eval, no plugins, no frames.
 */

/** Where a console that can "connect to another computer" may connect: any service (each still needs its token). */
export const ANY_SERVICE_CONNECT_SRC = 'http: https: ws: wss:';

/**
 * The policy; `connectSrc` is where the page's scripts may connect besides its own origin. A meta tag cannot
 * carry `frame-ancestors` (browsers ignore it there, with a warning), so `delivery: 'meta'` leaves it out.
 */
export function consoleContentSecurityPolicy(connectSrc: string, delivery: 'header' | 'meta' = 'header'): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${connectSrc}`,
    "base-uri 'none'",
    "form-action 'none'",
    ...(delivery === 'header' ? ["frame-ancestors 'none'"] : []),
  ].join('; ');
}
