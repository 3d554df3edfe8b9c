/**
 * The listener's end of a session with one trusted peer (docs/network.md): the first call must be its hello,
 * with the name trusted for the certificate it showed and the newest protocol it speaks; then deliveries and
 * control items, each answered only once what was stored is durable. Protocol 3's bodies arrive as binary
 * frames (attachments) just before the delivery that names them.
 */
import {
  isPeerLinkOperation,
  parsePeerDeliver,
  parsePeerDeliverPacked,
  PEER_PROTOCOL_ATTACHMENTS,
  PEER_PROTOCOL_MIN,
  PEER_PROTOCOL_VERSION,
  peerLinkOperations,
  toErrorBody,
  type Envelope,
} from '@qk/api';
import type { ComputerRef, NetworkPort, StoredPeer } from '@qk/engine';
import { QkError } from '@qk/model';
import { Attachments } from './attachments.js';
import type { PeerCallHandler } from './channel.js';
import type { NetworkLog } from './log.js';
import { fromWire, packOutcomes, unpackDelivery } from './wire.js';

export interface InboundDeps {
  self: ComputerRef;
  routing: boolean;
  log: NetworkLog;
  port(): NetworkPort;
  /** MSMQ's offline mode: no delivery is accepted. */
  offline(): boolean;
  /** The peer said hello: the session is up. */
  opened(peer: StoredPeer, from: ComputerRef): void;
  closed(peer: StoredPeer): void;
}

/**
 * The handler of one inbound connection from `peer` (already trusted by its fingerprint). `attachments` bounds
 * what may wait for its call (tests make them small).
 */
export function inboundHandler(peer: StoredPeer, deps: InboundDeps, attachments = new Attachments()): PeerCallHandler {
  let from: ComputerRef | null = null;
  /** The protocol agreed by the hello: the lower of the caller's and this computer's. */
  let protocol = 0;

  const hello = (input: unknown): unknown => {
    const said = peerLinkOperations.peerHello.input.parse(input);
    if (said.protocol < PEER_PROTOCOL_MIN) {
      deps.log.warn({ peer: peer.name, protocol: said.protocol }, 'peer refused: its protocol is too old');
      throw new QkError(
        'INVALID_PARAMETER',
        `Peer protocol ${said.protocol} is older than ${PEER_PROTOCOL_MIN}, the oldest this computer speaks; update Queuekeeper on ${peer.name}.`,
      );
    }
    if (said.name.toLowerCase() !== peer.name.toLowerCase()) {
      deps.log.warn(
        { peer: peer.name, claimed: said.name },
        'peer refused: its certificate is trusted for another computer name',
      );
      throw new QkError('ACCESS_DENIED', `This certificate is trusted as '${peer.name}', not '${said.name}'.`);
    }
    from = { name: peer.name, id: said.id };
    protocol = Math.min(said.protocol, PEER_PROTOCOL_VERSION);
    deps.opened(peer, from);
    return { protocol, name: deps.self.name, id: deps.self.id, routing: deps.routing };
  };

  const deliverPacked = async (
    caller: ComputerRef,
    input: unknown,
    attachment: Buffer | undefined,
  ): Promise<unknown> => {
    if (protocol < 2)
      throw new QkError(
        'INVALID_PARAMETER',
        `peerDeliverPacked is protocol 2; this session agreed protocol ${protocol}.`,
      );
    const delivery = parsePeerDeliverPacked(input);
    // A base64 text is still taken on a session that agreed 3: it means what it meant in protocol 2.
    if (typeof delivery.bodies !== 'string' && protocol < PEER_PROTOCOL_ATTACHMENTS)
      throw new QkError(
        'INVALID_PARAMETER',
        `Bodies as an attachment are protocol ${PEER_PROTOCOL_ATTACHMENTS}; this session agreed protocol ${protocol}.`,
      );
    const messages = unpackDelivery(delivery, attachment);
    return packOutcomes(await deps.port().deliver(caller, messages, deps.routing));
  };

  const answer = async (op: string, input: unknown, attachment: Buffer | undefined): Promise<unknown> => {
    if (!isPeerLinkOperation(op)) throw new QkError('INVALID_PARAMETER', `'${op}' is not a peer-link operation.`);
    if (deps.offline())
      throw new QkError('SERVICE_NOT_AVAILABLE', `${deps.self.name} is offline (qk service disconnect).`);
    if (op === 'peerHello') return hello(input);
    if (!from) throw new QkError('ACCESS_DENIED', 'Say hello first (peerHello).');
    if (op === 'peerDeliverPacked') return deliverPacked(from, input, attachment);
    if (op === 'peerDeliver') {
      const { messages } = parsePeerDeliver(input);
      const outcomes = await deps.port().deliver(from, messages.map(fromWire), deps.routing);
      return { outcomes };
    }
    const { items } = peerLinkOperations.peerControl.input.parse(input);
    await deps.port().receiveControl(items, deps.routing);
    return {};
  };
  return {
    async call(op, input): Promise<Envelope<unknown>> {
      // Taken before anything can refuse the call, so a refused one leaves nothing waiting.
      const attachment = op === 'peerDeliverPacked' ? attachments.claim(input) : undefined;
      try {
        return { ok: true, value: await answer(op, input, attachment) };
      } catch (error) {
        const body = toErrorBody(error);
        if (body.code === 'INTERNAL') deps.log.error({ peer: peer.name, op, error: body.message }, 'peer call failed');
        return { ok: false, error: body };
      } finally {
        if (attachment) attachments.release(attachment);
      }
    },
    binary(data) {
      const violation = attachments.arrived(data);
      if (violation !== null)
        deps.log.warn({ peer: peer.name, violation }, 'peer connection cut: it broke the peer-link protocol');
      return violation;
    },
    closed() {
      attachments.clear();
      if (from) deps.closed(peer);
    },
  };
}

/**
 * The listener's answer to a caller it does not let in (its certificate is not trusted here): every call is
 * refused with ACCESS_DENIED saying so, and nothing else happens on the connection. The caller sees the peer
 * `refused` it, rather than a connection that merely closed.
 */
export function refusalHandler(self: string, fingerprint: string | null): PeerCallHandler {
  const message =
    fingerprint === null
      ? `${self} accepts only callers that show a certificate.`
      : `${self} does not trust this computer's certificate (${fingerprint}); trust it there with qk peer add.`;
  return {
    call: async () => ({ ok: false, error: { code: 'ACCESS_DENIED', message } }),
    closed: () => undefined,
  };
}
