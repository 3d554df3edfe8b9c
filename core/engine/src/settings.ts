/**
 * The registry-like settings (reference §5 and the decisions table). A change to a setting that needs a
 * restart is stored at once and shown as pending; the running queue manager keeps the value it started with.
 */
import {
  defaultSettingValues,
  isSettingName,
  QkError,
  settingDefinitions,
  settingNames,
  type SettingInfo,
  type SettingName,
  type SettingValues,
} from '@qk/model';
import type { Store } from '@qk/store';

export class Settings {
  /** What the running queue manager uses. */
  private readonly effective: SettingValues;
  private readonly pending = new Map<SettingName, number>();

  /** Loads stored values; pending values take effect now, since this is a start. */
  constructor(private readonly store: Store) {
    this.effective = defaultSettingValues();
    for (const record of store.queues.settings()) {
      if (!isSettingName(record.name)) continue;
      const value = record.pending ?? record.value;
      this.effective[record.name] = value;
      if (record.pending !== null) store.queues.setSetting({ name: record.name, value, pending: null });
    }
  }

  get(name: SettingName): number {
    return this.effective[name];
  }

  list(): SettingInfo[] {
    return settingNames.map((name) => this.info(name));
  }

  info(name: SettingName): SettingInfo {
    const def = settingDefinitions[name];
    return {
      name,
      value: this.effective[name],
      default: def.default,
      unit: def.unit,
      min: def.min,
      max: def.max,
      restartRequired: def.restartRequired,
      pending: this.pending.get(name) ?? null,
      description: def.description,
    };
  }

  pendingNames(): string[] {
    return [...this.pending.keys()];
  }

  /** Validates and stores a value; an invalid one is refused and the old value kept. */
  set(name: string, value: number): SettingInfo {
    if (!isSettingName(name)) {
      throw new QkError('INVALID_PARAMETER', `Unknown setting '${name}'. Settings: ${settingNames.join(', ')}.`);
    }
    const def = settingDefinitions[name];
    if (!Number.isInteger(value) || value < def.min || value > def.max) {
      throw new QkError(
        'INVALID_PARAMETER',
        `${name} must be a whole number from ${def.min} to ${def.max} (${def.unit}); ${value} was refused and ${this.effective[name]} kept.`,
      );
    }
    if (def.restartRequired) {
      if (value === this.effective[name]) this.pending.delete(name);
      else this.pending.set(name, value);
      this.store.queues.setSetting({ name, value: this.effective[name], pending: this.pending.get(name) ?? null });
    } else {
      this.effective[name] = value;
      this.store.queues.setSetting({ name, value, pending: null });
    }
    return this.info(name);
  }
}
