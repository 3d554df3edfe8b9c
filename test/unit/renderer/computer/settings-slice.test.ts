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
});
