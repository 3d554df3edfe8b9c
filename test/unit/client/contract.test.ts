import { describe, expect, it } from 'vitest';
import * as api from '@qk/api';
import { API_PREFIX, OPERATION_NAMES, SERVICE_FILE, TOKEN_FILE, WEBSOCKET_PATH } from '@qk/client';

describe("the client's copy of the contract's runtime values", () => {
  it('matches core/api exactly', () => {
    expect([...OPERATION_NAMES].sort()).toEqual([...api.operationNames].sort());
    expect({ API_PREFIX, WEBSOCKET_PATH, SERVICE_FILE, TOKEN_FILE }).toEqual({
      API_PREFIX: api.API_PREFIX,
      WEBSOCKET_PATH: api.WEBSOCKET_PATH,
      SERVICE_FILE: api.SERVICE_FILE,
      TOKEN_FILE: api.TOKEN_FILE,
    });
  });
});
