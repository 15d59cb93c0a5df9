import { insertEventWithDeliveries } from '../src/delivery/sql/fan-out.js';
import { transaction } from '../src/platform/transaction.js';
import { createWebhook } from '../src/webhooks/webhooks.service.js';
import type { Benchmark } from './run.js';
import { owner } from './webhook-helpers.js';

// The cost of subscription filters in the fan-out (docs/adr/0087-subscription-filters.md): single-event commits of
// message.received to an account with SUBS subscriptions of it, without filters, with a filter the event matches
// (each subscription gets a delivery) and with the same filter rejecting the event (none does). Per event: the wall
// time of its fan-out statement, events written PER_COMMIT to a transaction so that the commit's flush (which
// dwarfs the statement on a shared disk) is shared; the median of ROUNDS alternating rounds. Then the evaluator
// alone: the Postgres time of one sb_filter_matches call, from EVALUATIONS calls in one statement.

const N = Number(process.env.BENCH_FILTERS_N ?? 2000);
const SUBS = 10;
const ROUNDS = 3;
const PER_COMMIT = 100;
const EVALUATIONS = 100_000;

const FILTER = {
  channel: { $in: ['sms', 'email'] },
  $or: [{ subject: { $startsWith: 'Order' } }, { direction: 'outbound' }],
};
const payload = (n: number, matched: boolean) => ({
  id: `msg_${n}`,
  conversationId: `conv_${n}`,
  channel: 'sms',
  direction: 'inbound',
  subject: matched ? `Order ${n}` : `Hello ${n}`,
  text: 'a message of a typical size, which the filter reads a few fields of',
});

export const filtersBenchmark: Benchmark = {
  id: 'filters',
  name: `filters: ${N} events (${PER_COMMIT} a commit) to ${SUBS} subscriptions, unfiltered vs filtered (matched, rejected)`,
  async run(env) {
    const { deps, close } = await env.createDeps({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      type Run = (n: number, count?: number) => Promise<number>;
      const cases = {} as Record<'unfiltered' | 'matched' | 'rejected', Run>;
      for (const [name, filter, matched] of [
        ['unfiltered', undefined, true],
        ['matched', FILTER, true],
        ['rejected', FILTER, false],
      ] as const) {
        const principal = await owner(deps, Object.keys(cases).length);
        for (let i = 0; i < SUBS; i++)
          await createWebhook(
            deps,
            { principal, ip: null },
            { url: `http://127.0.0.1:9/${name}/${i}`, events: ['message.received'], ...(filter ? { filter } : {}) },
          );
        cases[name] = (n, count = 1) =>
          transaction(deps.db, async (trx) => {
            let written = 0;
            for (let i = n; i < n + count; i++) {
              const e = { type: 'message.received' as const, payload: payload(i, matched) };
              written += (await insertEventWithDeliveries(trx, principal.accountId, e)).deliveryIds.length;
            }
            return written;
          });
      }
      // Each case writes what it should, then warms up.
      const deliveries = {
        unfiltered: await cases.unfiltered(0),
        matched: await cases.matched(0),
        rejected: await cases.rejected(0),
      };
      for (const run of Object.values(cases)) await run(1, 300);
      const rounds: Record<keyof typeof cases, number[]> = { unfiltered: [], matched: [], rejected: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, run] of Object.entries(cases) as Array<[keyof typeof cases, Run]>) {
          const started = process.hrtime.bigint();
          for (let n = 0; n < N; n += PER_COMMIT) await run(n, PER_COMMIT);
          rounds[name].push(Math.round(Number(process.hrtime.bigint() - started) / 1000 / N));
        }
      }
      // The plan as the webhooks row holds it; each call gets a payload of its own, so none is folded into a constant.
      const { rows } = await deps.db.raw<{ rows: Array<{ us: number; matched: number }> }>(
        `SELECT (extract(epoch FROM clock_timestamp() - now()) * 1e6 / ?)::float8 AS us, matched::int
           FROM (SELECT count(*) FILTER (WHERE sb_filter_matches(plan, ?::jsonb || jsonb_build_object('n', g))) AS matched
                   FROM (SELECT sb_filter_plan(?::jsonb) AS plan OFFSET 0) AS p, generate_series(1, ?) AS g
                 OFFSET 0) AS c`,
        [EVALUATIONS, JSON.stringify(payload(0, true)), JSON.stringify(FILTER), EVALUATIONS],
      );
      const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
      return {
        deliveries_per_event: deliveries,
        evaluation_us: +rows[0]!.us.toFixed(2),
        evaluations_matched: rows[0]!.matched,
        event_us_median: {
          unfiltered: median(rounds.unfiltered),
          matched: median(rounds.matched),
          rejected: median(rounds.rejected),
        },
        rounds,
      };
    } finally {
      await close();
    }
  },
};
