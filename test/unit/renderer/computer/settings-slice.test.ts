import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore } from '../../../../renderer/src/store/app-store.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';

afterEach(disposeEngineClients);

describe('settings in the console', () => {
  it('shows a setting that waits for a restart as pending, and as applied once Message Queuing restarted', async () => {
    const client = createEngineClient();
    const store = createAppStore(client, { storage: null });
    await store.getState().start();
    const setting = () => store.getState().settings['local']?.find((s) => s.name === 'RemoveDuplicateSize');
    const before = setting()?.value;
    await store.getState().changeSetting('local', 'RemoveDuplicateSize', 500);
    expect(setting()).toMatchObject({ value: before, pending: 500 });
    await store.getState().restartService('local');
    expect(setting()).toMatchObject({ value: 500, pending: null });
    expect(store.getState().computers[0]?.status?.settingsPendingRestart).toEqual([]);
  });

  it('XactDelayReceiveNack is absent by default, can be set, and made absent again after a restart', async () => {
    const client = createEngineClient();
    const store = createAppStore(client, { storage: null });
    await store.getState().start();
    const setting = () => store.getState().settings['local']?.find((s) => s.name === 'XactDelayReceiveNack');
    expect(setting()).toMatchObject({ value: null, default: null, pending: null });
    await store.getState().changeSetting('local', 'XactDelayReceiveNack', 30);
    await store.getState().restartService('local');
    expect(setting()).toMatchObject({ value: 30, pending: null });
    await store.getState().changeSetting('local', 'XactDelayReceiveNack', null);
    expect(setting()).toMatchObject({ value: 30, pending: null, pendingRestart: true });
    await store.getState().restartService('local');
    expect(setting()).toMatchObject({ value: null, pending: null });
  });
});
