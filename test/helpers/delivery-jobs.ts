import type { Job } from 'bullmq';

/** The deliveries a delivery job holds: one for deliver-webhook, its list for a shared deliver-webhooks job. */
export const deliveryIdsOf = (job: Job): string[] =>
  job.data.deliveries?.map((d: { deliveryId: string }) => d.deliveryId) ?? [job.data.deliveryId];
