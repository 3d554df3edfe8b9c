/** IPC channel names shared by the main process and the preload. */
export const CALL_CHANNEL = 'qk:call';
export const EVENT_CHANNEL = 'qk:event';
