import { createHttpTransport } from '../transports/http.js';
import { defineKind } from './kind.js';

/** http (the default): the signed request POSTed to the subscription's URL through the SSRF-safe client. */
export const http = defineKind({
  name: 'http',
  created: true,
  pulled: false,
  url: 'public',
  fields: [],
  label: 'POSTed to the URL',
  transport: (parts) => createHttpTransport(parts.http),
  description: 'POSTed to url',
  urlPlaceholder: 'https://example.com/hooks',
  urlForm: 'https://…',
});
