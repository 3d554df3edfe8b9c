/** How the console words outgoing-queue and peer states (MSMQ's snap-in wording). */
import type { OutgoingState, PeerState } from '@qk/model';

export const outgoingStateText: Record<OutgoingState, string> = {
  connected: 'Connected',
  waiting: 'Waiting to connect',
  onHold: 'On hold',
  inactive: 'Inactive',
};

export const peerStateText: Record<PeerState, string> = {
  connected: 'Connected',
  idle: 'Idle',
  unreachable: 'Unreachable',
  refused: 'Refused (fingerprint or trust)',
};
