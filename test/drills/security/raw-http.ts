/**
 * Requests exactly as written — path bytes, Host, Origin, content type — which fetch would normalize or
 * refuse to send. What an attacker's page, a DNS-rebinding host or a careless script puts on the wire.
 */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The answer parsed as JSON (null when it is not JSON); `text` is what came. */
  body: unknown;
  text: string;
}

/** A text field of a successful answer's `value`; fails with the whole answer when there is none. */
export function valueText(response: RawResponse, field: string): string {
  const value = (response.body as { value?: Record<string, unknown> } | null)?.value?.[field];
  if (typeof value !== 'string') throw new Error(`The answer has no text value.${field}: ${response.text}`);
  return value;
}

export interface RawRequest {
  method?: string;
  /** Sent as is: `/%61pi/v1/queueList` stays encoded. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer | undefined;
  /** Leave the Host header out altogether (HTTP/1.0 style). */
  noHost?: boolean;
}

/** Sends one request to the service at `url` and reads the whole answer. */
export function rawRequest(url: string, options: RawRequest): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? 'POST',
        path: options.path,
        headers: options.headers ?? {},
        setHost: !options.noHost && !Object.keys(options.headers ?? {}).some((h) => h.toLowerCase() === 'host'),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = null;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON: the test looks at text.
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text });
        });
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** The headers of an authorized JSON call. */
export function authorized(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra };
}
