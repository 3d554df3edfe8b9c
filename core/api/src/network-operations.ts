/**
 * The administrator operations of many computers (CLI.md "Many computers"): trusted peers, routes,
 * outgoing queues and offline mode. Part of the one operations table (operations.ts).
 */
import { z } from 'zod';
import { outgoingStates, peerStates, type OutgoingQueueInfo, type PeerInfo, type RouteInfo } from '@qk/model';
import { Bounds, serviceStatusSchema } from './schemas.js';

/** Computer names are at most 256 characters (MQ_MAX_COMPUTERNAME_LEN); the engine checks the rest. */
const computerName = z.string().min(1).max(Bounds.COMPUTER_NAME);
const peerAddress = z.string().min(3).max(Bounds.PEER_ADDRESS);
/** Checked and normalized by the engine. */
const fingerprint = z.string().min(7).max(Bounds.FINGERPRINT);
/** The destination queue's format name or path, as `qk outgoing pause` takes it. */
const formatName = z.string().min(1).max(Bounds.PATH);

export const peerInfoSchema = z.object({
  name: z.string().max(Bounds.COMPUTER_NAME),
  address: z.string().max(Bounds.PEER_ADDRESS),
  fingerprint: z.string().max(Bounds.FINGERPRINT),
  lastConnected: z.string().max(Bounds.TIME_TEXT).nullable(),
  state: z.enum(peerStates),
}) satisfies z.ZodType<PeerInfo>;

export const routeInfoSchema = z.object({
  destination: z.string().max(Bounds.COMPUTER_NAME),
  via: z.string().max(Bounds.COMPUTER_NAME),
}) satisfies z.ZodType<RouteInfo>;

export const outgoingQueueInfoSchema = z.object({
  formatName: z.string().max(Bounds.PATH),
  destinationComputer: z.string().max(Bounds.COMPUTER_NAME),
  nextHop: z.string().max(Bounds.COMPUTER_NAME).nullable(),
  state: z.enum(outgoingStates),
  messageCount: z.number().int(),
  bytes: z.number().int(),
  unconfirmedCount: z.number().int(),
  lastError: z.string().max(Bounds.LAST_ERROR).nullable(),
  lastConnectedTime: z.string().max(Bounds.TIME_TEXT).nullable(),
}) satisfies z.ZodType<OutgoingQueueInfo>;

const empty = z.object({});

export const networkOperations = {
  peerAdd: {
    input: z.object({ name: computerName, address: peerAddress, fingerprint }),
    output: peerInfoSchema,
    admin: true,
    summary:
      'Trusts a computer at a peer address, by its certificate fingerprint, both to deliver to it and to accept from it; replaces an earlier entry of that name.',
  },
  peerList: {
    input: empty,
    output: z.array(peerInfoSchema),
    admin: false,
    summary: 'The trusted computers with their state.',
  },
  peerRemove: {
    input: z.object({ name: computerName }),
    output: empty,
    admin: true,
    summary: 'Stops trusting a computer; its outgoing queues wait.',
  },
  routeSet: {
    input: z.object({ destination: computerName, via: computerName }),
    output: routeInfoSchema,
    admin: true,
    summary: 'Messages for a computer (or `*`, every computer without a route of its own) go through a routing server.',
  },
  routeList: { input: empty, output: z.array(routeInfoSchema), admin: false, summary: 'The routes.' },
  routeRemove: {
    input: z.object({ destination: computerName }),
    output: empty,
    admin: true,
    summary: 'Removes the route of a computer (or `*`).',
  },
  outgoingList: {
    input: empty,
    output: z.array(outgoingQueueInfoSchema),
    admin: false,
    summary: 'Outgoing queues with their state, next hop and counts.',
  },
  outgoingPause: {
    input: z.object({ formatName }),
    output: outgoingQueueInfoSchema,
    admin: true,
    summary: "MSMQ's Pause: the outgoing queue keeps its messages and sends nothing until resumed.",
  },
  outgoingResume: {
    input: z.object({ formatName }),
    output: outgoingQueueInfoSchema,
    admin: true,
    summary: "MSMQ's Resume of a paused outgoing queue.",
  },
  serviceDisconnect: {
    input: empty,
    output: serviceStatusSchema,
    admin: true,
    summary: "MSMQ's offline mode: every outgoing queue holds and no deliveries are accepted.",
  },
  serviceConnect: {
    input: empty,
    output: serviceStatusSchema,
    admin: true,
    summary: 'Ends offline mode: outgoing queues send again and deliveries are accepted.',
  },
} as const;
