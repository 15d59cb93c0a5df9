import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  CallbackEndpointError,
  EventsError,
  ForbiddenError,
  InvalidParamsError,
  NotFoundError,
  ResourceExhaustedError,
  UnsupportedError,
} from '@switchboard/mcp-events';
import { describe, expect, it } from 'vitest';
import { toEventsError } from '../../packages/mcp-events/src/errors.js';

// Each of the Events extension's error codes as the SDK hands it over becomes its own class, with the server's
// message and data; any other error passes through unchanged.

describe('toEventsError', () => {
  it.each([
    [-32602, InvalidParamsError],
    [-32011, NotFoundError],
    [-32012, ForbiddenError],
    [-32013, ResourceExhaustedError],
    [-32014, UnsupportedError],
    [-32015, CallbackEndpointError],
  ])('maps %i to its class, with its message and data', (code, Class) => {
    const err = toEventsError(new McpError(code, 'Refused', { limit: 'subscriptions' }));
    expect(err).toBeInstanceOf(Class);
    expect(err).toBeInstanceOf(EventsError);
    expect(err).toMatchObject({ code, message: 'Refused', data: { limit: 'subscriptions' }, name: Class.name });
  });

  it('leaves another JSON-RPC error and a network error as they are', () => {
    const internal = new McpError(-32603, 'Internal error');
    expect(toEventsError(internal)).toBe(internal);
    const network = new TypeError('fetch failed');
    expect(toEventsError(network)).toBe(network);
  });
});
