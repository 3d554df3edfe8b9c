/**
 * Several real services, each a "computer" with its own data folder and peer listener on loopback
 * (docs/network.md), driven only through `qk --json`. Trust is set up the way an administrator does it:
 * `qk peer add` with the other computer's ready-line address and fingerprint.
 */
import { ok } from './qk-expect.js';
import { Qk } from './qk-ops.js';
import type { QkOutgoing, QkPeer } from './qk-types.js';
import { ServiceHarness, type HarnessOptions } from './service-harness.js';

export interface ComputerSpec extends Omit<HarnessOptions, 'name' | 'peerListen'> {
  name: string;
  /** Default 127.0.0.1:0. */
  peerListen?: string;
}

/** One computer: its service and the usual qk round trips. */
export interface Computer {
  readonly name: string;
  readonly svc: ServiceHarness;
  readonly q: Qk;
  /** `HOST:PORT` of its peer listener (from the ready line). */
  readonly peerAddress: string;
  readonly fingerprint: string;
}

function computerOf(svc: ServiceHarness): Computer {
  const ready = svc.ready;
  if (!ready?.peerAddress || !ready.peerFingerprint)
    throw new Error(`${svc.name}: the ready line has no peerAddress/peerFingerprint: ${JSON.stringify(ready)}`);
  return { name: svc.name, svc, q: new Qk(svc), peerAddress: ready.peerAddress, fingerprint: ready.peerFingerprint };
}

export class Computers {
  private constructor(private readonly byName: Map<string, Computer>) {}

  /** Starts every computer at once (each on 127.0.0.1 with a free peer port unless told otherwise). */
  static async start(specs: ComputerSpec[]): Promise<Computers> {
    const started = await Promise.allSettled(
      specs.map((spec) => ServiceHarness.create({ ...spec, peerListen: spec.peerListen ?? '127.0.0.1:0' })),
    );
    const services = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await Promise.all(services.map((s) => s.dispose()));
      throw failed.reason;
    }
    return new Computers(new Map(services.map((svc) => [svc.name.toLowerCase(), computerOf(svc)])));
  }

  get(name: string): Computer {
    const found = this.byName.get(name.toLowerCase());
    if (!found) throw new Error(`no computer ${name}`);
    return found;
  }

  all(): Computer[] {
    return [...this.byName.values()];
  }

  /**
   * `from` trusts `to` (`qk peer add`). `address` replaces `to`'s own peer address, e.g. with a proxy's.
   */
  async trustOneWay(from: string, to: string, address?: string): Promise<QkPeer> {
    const a = this.get(from);
    const b = this.get(to);
    return ok(await a.svc.qk<QkPeer>('peer', 'add', b.name, address ?? b.peerAddress, '--fingerprint', b.fingerprint));
  }

  /** Both computers trust each other, as a delivery between them needs. */
  async trust(a: string, b: string, options: { addressOfB?: string; addressOfA?: string } = {}): Promise<void> {
    await this.trustOneWay(a, b, options.addressOfB);
    await this.trustOneWay(b, a, options.addressOfA);
  }

  /**
   * `a` and `b` reach each other only through the routing server `relay`: each trusts it both ways, and routes
   * the other's computer through it (they do not trust each other).
   */
  async throughRoutingServer(a: string, b: string, relay: string): Promise<void> {
    await this.trust(a, relay);
    await this.trust(b, relay);
    ok(await this.get(a).svc.qk('route', 'set', b, relay));
    ok(await this.get(b).svc.qk('route', 'set', a, relay));
  }

  /** The outgoing queue of `computer` for a destination format name, or undefined. */
  async outgoing(computer: string, formatName: string): Promise<QkOutgoing | undefined> {
    const list = ok(await this.get(computer).svc.qk<QkOutgoing[]>('outgoing', 'list'));
    return list.find((o) => o.formatName.toLowerCase() === formatName.toLowerCase());
  }

  async dispose(): Promise<void> {
    await Promise.allSettled(this.all().map((c) => c.svc.dispose()));
  }
}
