/**
 * A TCP proxy that injects faults between two computers (docs/network.md): one computer's peer entry points
 * at the proxy, which forwards to the other's peer listener. The peer link is TLS end to end, so the proxy
 * works on bytes it cannot read:
 *
 * - `delay`: every chunk waits before it is forwarded (a slow link);
 * - `drop`: nothing is forwarded either way and connections stay open (a black hole: calls time out);
 * - `duplicate` / `reorder`: chunks are sent twice / swapped pairwise. TLS notices (its records are numbered
 *   and authenticated) and the connection fails — what a corrupting link does; message-level duplicates come
 *   from resends, which `cutReply` provokes;
 * - `cutReply`: once more than `afterBytesUp` bytes went towards the listener on a connection, the next bytes
 *   coming back (the confirmation) are thrown away and the connection is cut: the data arrived, its
 *   confirmation did not;
 * - `cut()`: every open connection is cut now; `refuse`: new connections are closed at once.
 *
 * Every loop here is bounded by the sockets' own lifetimes; nothing retries.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export type FaultMode =
  | { kind: 'pass' }
  | { kind: 'delay'; ms: number }
  | { kind: 'drop' }
  | { kind: 'duplicate' }
  | { kind: 'reorder' }
  | { kind: 'cutReply'; afterBytesUp: number; times: number }
  | { kind: 'refuse' };

export interface ProxyStats {
  connections: number;
  bytesUp: number;
  bytesDown: number;
  /** Connections cut by `cut()` or `cutReply`. */
  cuts: number;
}

interface Link {
  client: Socket;
  upstream: Socket;
  bytesUp: number;
  /** Pending chunk of `reorder`, per direction. */
  heldUp: Buffer | null;
  heldDown: Buffer | null;
}

export class FaultProxy {
  readonly stats: ProxyStats = { connections: 0, bytesUp: 0, bytesDown: 0, cuts: 0 };
  mode: FaultMode = { kind: 'pass' };
  private readonly links = new Set<Link>();

  private constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  /** Listens on 127.0.0.1 (any free port) and forwards to `target` (`HOST:PORT`). */
  static async start(target: string, listenHost = '127.0.0.1'): Promise<FaultProxy> {
    const at = target.lastIndexOf(':');
    const host = target.slice(0, at).replace(/^\[|\]$/g, '');
    const port = Number(target.slice(at + 1));
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, listenHost, () => resolve());
    });
    return new FaultProxy(server, { host, port });
  }

  /** `HOST:PORT` to give to `qk peer add`. */
  get address(): string {
    const a = this.server.address() as AddressInfo;
    return `${a.address}:${a.port}`;
  }

  /** Cuts every open connection now (both ways, without a goodbye). */
  cut(): number {
    const n = this.links.size;
    for (const link of [...this.links]) this.destroy(link, true);
    return n;
  }

  async close(): Promise<void> {
    for (const link of [...this.links]) this.destroy(link, false);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.mode.kind === 'refuse') {
      client.destroy();
      return;
    }
    this.stats.connections += 1;
    const upstream = connect(this.target.port, this.target.host);
    const link: Link = { client, upstream, bytesUp: 0, heldUp: null, heldDown: null };
    this.links.add(link);
    client.on('data', (chunk: Buffer) => this.forward(link, chunk, 'up'));
    upstream.on('data', (chunk: Buffer) => this.forward(link, chunk, 'down'));
    const end = (): void => this.destroy(link, false);
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }

  private forward(link: Link, chunk: Buffer, direction: 'up' | 'down'): void {
    const to = direction === 'up' ? link.upstream : link.client;
    const mode = this.mode;
    if (direction === 'up') {
      link.bytesUp += chunk.length;
      this.stats.bytesUp += chunk.length;
    } else this.stats.bytesDown += chunk.length;
    switch (mode.kind) {
      case 'pass':
      case 'refuse':
        to.write(chunk);
        return;
      case 'delay':
        setTimeout(() => to.destroyed || to.write(chunk), mode.ms);
        return;
      case 'drop':
        return;
      case 'duplicate':
        to.write(chunk);
        to.write(chunk);
        return;
      case 'reorder': {
        const held = direction === 'up' ? link.heldUp : link.heldDown;
        if (held) {
          to.write(chunk);
          to.write(held);
          if (direction === 'up') link.heldUp = null;
          else link.heldDown = null;
        } else if (direction === 'up') link.heldUp = chunk;
        else link.heldDown = chunk;
        return;
      }
      case 'cutReply':
        if (direction === 'down' && mode.times > 0 && link.bytesUp > mode.afterBytesUp) {
          mode.times -= 1;
          if (mode.times === 0) this.mode = { kind: 'pass' };
          this.destroy(link, true);
          return;
        }
        to.write(chunk);
        return;
    }
  }

  private destroy(link: Link, counted: boolean): void {
    if (!this.links.delete(link)) return;
    if (counted) this.stats.cuts += 1;
    link.client.destroy();
    link.upstream.destroy();
  }
}
