import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../platform/logger.js';
import { takeHolderLock } from './idempotency.repository.js';

// Whose an in-flight Idempotency-Key claim is, told by Postgres itself: each runtime holds a session-level
// advisory lock, on a connection of its own, under a number it picked, and writes that number into every claim it
// makes. Another request takes an in-flight claim over only once Postgres no longer shows that lock held, that is
// once the process that claimed it ended or lost its connection (docs/api-keys.md#idempotent-requests). However
// long a live request runs, its key stays its own: nothing about the claim lapses with time.

export interface ClaimHolder {
  /** This runtime's holder number, connecting (and taking the lock under a new number) when the session is gone. */
  current(): Promise<number>;
  close(): Promise<void>;
}

interface Session {
  client: pg.Client;
  holder: number;
}

/** Holder numbers are positive int4 values: what pg_locks shows as the lock's objid. */
const pickHolder = () => randomInt(1, 2 ** 31 - 1);

export function createClaimHolder(url: string, logger: Logger, applicationName?: string): ClaimHolder {
  let session: Promise<Session> | undefined;
  /** Connects and takes the lock; `lose` forgets the session when its connection fails or ends. */
  const open = async (lose: () => void): Promise<Session> => {
    const client = new pg.Client({ connectionString: url, application_name: applicationName });
    client.on('error', (err) => {
      logger.warn({ err: err.message }, 'idempotency claim session lost');
      lose();
    });
    client.on('end', lose);
    await client.connect();
    for (;;) {
      const holder = pickHolder();
      if (await takeHolderLock(client, holder)) return { client, holder };
    }
  };
  return {
    async current() {
      if (!session) {
        // A lost session is replaced at the next claim, under a new number: the claims of the old one are free.
        const opening: Promise<Session> = open(() => {
          if (session === opening) session = undefined;
        });
        session = opening;
        opening.catch(() => {
          if (session === opening) session = undefined;
        });
      }
      return (await session).holder;
    },
    async close() {
      const closing = session;
      session = undefined;
      const open = await closing?.catch(() => undefined);
      await open?.client.end();
    },
  };
}
