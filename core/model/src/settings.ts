/**
 * The registry-like settings of the queue manager (reference/msmq.md §5 and the decisions table).
 * Names as MSMQ's registry spells them.
 */
export interface SettingDefinition {
  name: SettingName;
  default: number;
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
] as const;
export type SettingName = (typeof settingNames)[number];

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
};

export function isSettingName(name: string): name is SettingName {
  return (settingNames as readonly string[]).includes(name);
}

export type SettingValues = Record<SettingName, number>;

export function defaultSettingValues(): SettingValues {
  return Object.fromEntries(settingNames.map((n) => [n, settingDefinitions[n].default])) as SettingValues;
}
