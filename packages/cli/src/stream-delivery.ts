// The wire shape of a `delivery` event on the stream (GET /v1/webhook-streams), as the service writes it: one signed
// request, as a worker would have POSTed it, for `listen` to POST to its --forward-to. The CLI imports nothing of the
// service, so the shape is written out here; test/integration/cli-listen.test.ts checks it against a live server.

export interface StreamDelivery {
  token: string;
  deliveryId: string;
  event: string;
  attempt: number;
  headers: Record<string, string>;
  body: string;
}
