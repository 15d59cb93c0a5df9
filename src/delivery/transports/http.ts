import type { HttpClient } from '../../platform/http-client.js';
import type { Transport } from '../transport.js';

/** An http destination: the request POSTed to the subscription's URL through the runtime's SSRF-safe client. */
export function createHttpTransport(http: HttpClient): Transport {
  return {
    send: (request) => http.post(request.url, request.body, request.headers),
    // The client's pool belongs to the runtime (deps.http), which closes it.
    close: async () => undefined,
  };
}
