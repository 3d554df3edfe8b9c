/**
 * The registry-like settings of the queue manager (reference/msmq.md §5 and the decisions table).
 * Names as MSMQ's registry spells them.
 */
export interface SettingDefinition {
  name: SettingName;
  /** null: absent by default, as a registry value MSMQ reads only when it is there. */
  default: number | null;
  unit: string;
  min: number;
  max: number;
  /** True when a change is stored at once but takes effect only after a restart. */
  restartRequired: boolean;
  description: string;
}

export const settingNames = [
  'MachineQuota',
  'MachineJournalQuota',
  'RemoveDuplicateSize',
  'RemoveDuplicateCleanup',
  'XactDeadLetterAlways',
  'LongLiveTime',
  'MaxMessageSize',
  'MessageCleanupInterval',
  'CleanupInterval',
  'XactDelayReceiveNack',
  'SeqResend13Time',
  'SeqResend46Time',
  'SeqResend79Time',
  'SeqResend10Time',
] as const;
export type SettingName = (typeof settingNames)[number];
/** Settings that may be absent (no value): MSMQ then applies a rule of its own. */
const nullableSettingNames = ['XactDelayReceiveNack'] as const;
export type NullableSettingName = (typeof nullableSettingNames)[number];
/** Settings that always have a number. */
export type NumericSettingName = Exclude<SettingName, NullableSettingName>;

export function isNullableSetting(name: SettingName): name is NullableSettingName {
  return (nullableSettingNames as readonly string[]).includes(name);
}

const DWORD_MAX = 0xffffffff;

export const settingDefinitions: Record<SettingName, SettingDefinition> = {
  MachineQuota: {
    name: 'MachineQuota',
    default: 1_048_576,
    unit: 'KB',
    min: 1,
    max: DWORD_MAX,
    restartRequired: false,
    description:
      'Message storage limit of this computer: messages in every queue, queue journals, the computer journal and the dead-letter queues count against it.',
  },
  MachineJournalQuota: {
    name: 'MachineJournalQuota',
    default: 1_048_576,
    unit: 'KB',
    min: 1,
    max: DWORD_MAX,
    restartRequired: false,
    description: 'Storage limit of the computer journal and the dead-letter queues together.',
  },
  RemoveDuplicateSize: {
    name: 'RemoveDuplicateSize',
    default: 10_000,
    unit: 'entries',
    min: 0,
    max: 10_000_000,
    restartRequired: true,
    description: 'Capacity of the duplicate-removal cache for nontransactional messages; 0 disables duplicate removal.',
  },
  RemoveDuplicateCleanup: {
    name: 'RemoveDuplicateCleanup',
    default: 1_800_000,
    unit: 'ms',
    min: 1_000,
    max: DWORD_MAX,
    restartRequired: true,
    description: 'Age after which entries leave the duplicate-removal cache; also how often the cleanup runs.',
  },
  XactDeadLetterAlways: {
    name: 'XactDeadLetterAlways',
    default: 0,
    unit: '0/1',
    min: 0,
    max: 1,
    restartRequired: true,
    description:
      'When 1 (MSMQ 1.0 semantics), undelivered transactional messages always go to the transactional dead-letter queue, even without the dead-letter flag.',
  },
  LongLiveTime: {
    name: 'LongLiveTime',
    default: 345_600,
    unit: 's',
    min: 1,
    max: 0xfffffffe,
    restartRequired: false,
    description: 'Default time-to-reach-queue of messages sent without one (4 days; 90 days in a migrated enterprise).',
  },
  MaxMessageSize: {
    name: 'MaxMessageSize',
    default: 4_194_304,
    unit: 'bytes',
    min: 1_024,
    max: 4_194_304,
    restartRequired: true,
    description: 'Largest message, body and properties together, this computer accepts.',
  },
  MessageCleanupInterval: {
    name: 'MessageCleanupInterval',
    default: 21_600_000,
    unit: 'ms',
    min: 60_000,
    max: DWORD_MAX,
    restartRequired: true,
    description:
      'How often the message store gives back the disk space of removed messages (MSMQ deletes its empty storage files); every restart does it too.',
  },
  CleanupInterval: {
    name: 'CleanupInterval',
    default: 120_000,
    unit: 'ms',
    min: 1_000,
    max: DWORD_MAX,
    restartRequired: true,
    description: 'How long an empty outgoing queue stays idle before it is removed (2 minutes on a server).',
  },
  XactDelayReceiveNack: {
    name: 'XactDelayReceiveNack',
    default: null,
    unit: 's',
    min: 0,
    max: 0xfffffffe,
    restartRequired: true,
    description:
      "Extra wait after a sent transactional message's time-to-be-received runs out before it goes to the transactional dead-letter queue, so a late receive acknowledgment can still arrive. Absent: the smaller of the message's own timers.",
  },
  SeqResend13Time: {
    name: 'SeqResend13Time',
    default: 30,
    unit: 's',
    min: 1,
    max: DWORD_MAX,
    restartRequired: true,
    description:
      'Wait before each of the 1st to 3rd resends of an unconfirmed transactional message to another computer.',
  },
  SeqResend46Time: {
    name: 'SeqResend46Time',
    default: 300,
    unit: 's',
    min: 1,
    max: DWORD_MAX,
    restartRequired: true,
    description: 'Wait before each of the 4th to 6th resends of an unconfirmed transactional message.',
  },
  SeqResend79Time: {
    name: 'SeqResend79Time',
    default: 1_800,
    unit: 's',
    min: 1,
    max: DWORD_MAX,
    restartRequired: true,
    description: 'Wait before each of the 7th to 9th resends of an unconfirmed transactional message.',
  },
  SeqResend10Time: {
    name: 'SeqResend10Time',
    default: 21_600,
    unit: 's',
    min: 1,
    max: DWORD_MAX,
    restartRequired: true,
    description: 'Wait before the 10th and every later resend of an unconfirmed transactional message.',
  },
};

export function isSettingName(name: string): name is SettingName {
  return (settingNames as readonly string[]).includes(name);
}

export type SettingValues = Record<NumericSettingName, number> & Record<NullableSettingName, number | null>;

export function defaultSettingValues(): SettingValues {
  return Object.fromEntries(settingNames.map((n) => [n, settingDefinitions[n].default])) as SettingValues;
}
