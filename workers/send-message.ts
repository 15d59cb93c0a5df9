import { deliverQueuedMessage } from '../src/messages/delivery.service.js';
import { jobs } from '../src/platform/queues.js';
import { defineProcessor } from './processor.js';

/** Sends one queued message (job id = message id). */
export const sendMessageProcessor = defineProcessor({
  job: jobs.sendMessage,
  async process(deps, data, job) {
    const attempts = job.opts.attempts ?? 1;
    return deliverQueuedMessage(deps, data.messageId, { last: job.attemptsMade + 1 >= attempts });
  },
});
