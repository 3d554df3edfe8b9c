/**
 * The registry-like settings (reference §5 and the decisions table). A change to a setting that needs a
 * restart is stored at once and shown as pending; the running queue manager keeps the value it started with.
 */
import {
  defaultSettingValues,
  isNullableSetting,
  isSettingName,
  QkError,
  settingDefinitions,
  settingNames,
  type NullableSettingName,
  type NumericSettingName,
  type SettingInfo,
  type SettingName,
  type SettingValues,
} from '@qk/model';
import type { Store } from '@qk/store';

/** How the store keeps "absent" (the settings table holds numbers; no setting allows a negative value). */
const ABSENT = -1;

const fromStored = (value: number): number | null => (value === ABSENT ? null : value);
const toStored = (value: number | null): number => value ?? ABSENT;

export class Settings {
  /** What the running queue manager uses. */
  private readonly effective: Record<SettingName, number | null>;
  /** Values waiting for the restart (null: the setting becomes absent then). */
  private readonly pending = new Map<SettingName, number | null>();

  /** Loads stored values; pending values take effect now, since this is a start. */
  constructor(private readonly store: Store) {
    this.effective = defaultSettingValues();
    for (const record of store.queues.settings()) {
      if (!isSettingName(record.name)) continue;
      const value = record.pending ?? record.value;
      this.effective[record.name] = fromStored(value);
      if (record.pending !== null) store.queues.setSetting({ name: record.name, value, pending: null });
    }
  }

  get(name: NumericSettingName): number {
    return this.effective[name] as number;
  }

  /** A setting that may be absent (null). */
  getNullable(name: NullableSettingName): number | null {
    return this.effective[name];
  }

  /** Every value in effect. */
  values(): SettingValues {
    return { ...this.effective } as SettingValues;
  }

  list(): SettingInfo[] {
    return settingNames.map((name) => this.info(name));
  }

  info(name: SettingName): SettingInfo {
    const def = settingDefinitions[name];
    const waiting = this.pending.has(name);
    return {
      name,
      value: this.effective[name],
      default: def.default,
      unit: def.unit,
      min: def.min,
      max: def.max,
      restartRequired: def.restartRequired,
      pending: this.pending.get(name) ?? null,
      pendingRestart: waiting,
      description: def.description,
    };
  }

  pendingNames(): string[] {
    return [...this.pending.keys()];
  }

  /** Validates and stores a value (null makes a nullable setting absent); an invalid one is refused and the old value kept. */
  set(name: string, value: number | null): SettingInfo {
    if (!isSettingName(name)) {
      throw new QkError('INVALID_PARAMETER', `Unknown setting '${name}'. Settings: ${settingNames.join(', ')}.`);
    }
    const def = settingDefinitions[name];
    if (value === null) {
      if (!isNullableSetting(name))
        throw new QkError('INVALID_PARAMETER', `${name} always has a value; it cannot be made absent.`);
    } else if (!Number.isInteger(value) || value < def.min || value > def.max) {
      throw new QkError(
        'INVALID_PARAMETER',
        `${name} must be a whole number from ${def.min} to ${def.max} (${def.unit}); ${value} was refused and ${String(this.effective[name] ?? 'absent')} kept.`,
      );
    }
    if (def.restartRequired) {
      if (value === this.effective[name]) this.pending.delete(name);
      else this.pending.set(name, value);
      const waiting = this.pending.has(name);
      this.store.queues.setSetting({
        name,
        value: toStored(this.effective[name]),
        pending: waiting ? toStored(this.pending.get(name) ?? null) : null,
      });
    } else {
      this.effective[name] = value;
      this.store.queues.setSetting({ name, value: toStored(value), pending: null });
    }
    return this.info(name);
  }
}
