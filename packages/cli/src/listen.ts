import type { Command } from 'commander';
import { errorFromResponse, SwitchboardError } from '@switchboard/client';
import { describeApiError, session } from './api.js';
import { cliEnv } from './env.js';
import { forwardDelivery, type LocalOutcome } from './forward.js';
import { launcherPids, watchLaunchers } from './launcher.js';
import { CliError, count, EXIT, paint, type Output } from './output.js';
import { checkSignature } from './signature.js';
import { readEvents } from './sse.js';
import type { StreamDelivery } from './stream-delivery.js';

// switchboard listen: opens a stream destination (GET /v1/webhook-streams, server-sent events), POSTs each delivery
// to --forward-to as the worker would have sent it, and reports the local status and duration back, which the
// service records as the attempt (docs/cli.md, docs/adr/0054-stream-destinations.md).

interface ListenOptions {
  forwardTo: string;
  events?: string;
  signatureScheme?: string;
  printJson?: boolean;
  timeout: string;
}

/** host, host:port, host/path: a name, an IPv4 address or a bracketed IPv6 one, and digits for the port. */
const SHORTHAND =
  /^(?:\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(?::\d{1,5})?(?:[/?#].*)?$/i;

/**
 * The URL --forward-to names: an http(s) URL, or the `localhost:4000/hooks` shorthand for http://. Anything else
 * (another scheme, `mailto:…`, a bare port) is a usage error, decided before anything connects.
 */
export function forwardUrl(value: string): string {
  const refuse = () => new CliError(`--forward-to must be an http(s) URL, not "${value}"`, EXIT.usage);
  const explicit = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  if (!explicit && !SHORTHAND.test(value)) throw refuse();
  let url: URL;
  try {
    url = new URL(explicit ? value : `http://${value}`);
  } catch {
    throw refuse();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse();
  // A host of digits alone (`4000`) is a port someone forgot the host of, not the address URL would make of it.
  if (!explicit && /^\d+$/.test(value.split(/[:/?#]/)[0]!)) throw refuse();
  return url.href;
}

function describe(o: LocalOutcome): { text: string; ok: boolean } {
  if (o.status !== null) return { text: String(o.status), ok: o.status >= 200 && o.status < 300 };
  return { text: `${o.error}: ${o.message}`, ok: false };
}

export function registerListenCommand(program: Command, out: () => Output) {
  program
    .command('listen')
    .description("Receive the account's deliveries on this machine: no public URL needed")
    .requiredOption('--forward-to <url>', 'where to POST each delivery (e.g. http://localhost:4000/hooks)')
    .option('--events <names>', 'comma-separated event types (default: all)')
    .option(
      '--signature-scheme <scheme>',
      'hmac-sha256 (the default: a session secret) or ed25519 (a public key verifies; nothing on this machine can sign)',
    )
    .option('--print-json', 'print each payload too')
    .option('--timeout <ms>', 'how long the local receiver may take', '10000')
    .action(async (opts: ListenOptions) => {
      const o = out();
      const target = forwardUrl(opts.forwardTo);
      const timeoutMs = Number(opts.timeout);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
        throw new CliError('--timeout must be a positive integer', EXIT.usage);
      const { api, credential } = session();

      const stop = new AbortController();
      const onSigint = () => stop.abort();
      process.once('SIGINT', onSigint);
      process.once('SIGTERM', onSigint);
      // The session ends when the process that started it goes away, wrappers such as npx included, rather than
      // holding a stream nobody watches.
      const unwatch = watchLaunchers(launcherPids(cliEnv.launchedByNpm), () => stop.abort());
      const url = new URL('/v1/webhook-streams', credential.url);
      if (opts.events) url.searchParams.set('events', opts.events);
      if (opts.signatureScheme) url.searchParams.set('signatureScheme', opts.signatureScheme);
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { authorization: `Bearer ${credential.token}`, accept: 'text/event-stream' },
          signal: stop.signal,
        });
      } catch (err) {
        if (stop.signal.aborted) return;
        throw new CliError(`could not reach the API: ${(err as Error).cause ?? (err as Error).message}`);
      }
      if (!res.ok || !res.body) throw await errorFromResponse(res);

      let webhookId = '';
      // What verifies the session's deliveries: its whsec_ secret, or the whpk_ public key of an ed25519 session.
      let key = '';
      let closedBy = 'the API closed the stream';
      let spinning = () => {};
      const inFlight = new Set<Promise<void>>();
      const ended = new AbortController();
      const handle = async (d: StreamDelivery) => {
        // Forwarded whatever the check says: the local receiver decides, as a deployed endpoint would.
        const signature = await checkSignature(d, key);
        const outcome = await forwardDelivery(target, d, timeoutMs, ended.signal);
        if (ended.signal.aborted) return;
        const shown = describe(outcome);
        const line = {
          type: 'delivery',
          deliveryId: d.deliveryId,
          event: d.event,
          attempt: d.attempt,
          signature,
          ...outcome,
        };
        o.result(opts.printJson ? { ...line, envelope: JSON.parse(d.body) } : line, () => {
          const status = paint(process.stdout, shown.ok ? 'green' : 'red', shown.text);
          const unverified =
            signature === 'verified' ? '' : `  ${paint(process.stdout, 'red', `signature: ${signature}`)}`;
          const line = `→ ${d.event.padEnd(24)} ${status}  ${outcome.durationMs} ms  ${d.deliveryId}${unverified}`;
          return opts.printJson ? `${line}\n${JSON.stringify(JSON.parse(d.body), null, 2)}` : line;
        });
        // The attempt is recorded from this report; a report that fails is shown, and the service times it out.
        await api
          .sendWebhookStreamReport({
            path: { webhookId },
            body: { token: d.token, deliveryId: d.deliveryId, ...outcome },
          })
          .catch((err: unknown) => {
            const why = err instanceof SwitchboardError ? describeApiError(err) : String(err);
            o.note(`could not report ${d.deliveryId}: ${why}`);
          });
      };

      try {
        for await (const message of readEvents(res.body)) {
          if (message.event === 'opened') {
            const opened = JSON.parse(message.data) as {
              webhookId: string;
              secret: string | null;
              publicKey?: string | null;
              events: string[];
            };
            webhookId = opened.webhookId;
            key = opened.secret ?? opened.publicKey ?? '';
            const ready = opened.secret
              ? `Ready! Your webhook signing secret is ${paint(process.stdout, 'bold', opened.secret)}`
              : `Ready! Deliveries are signed with ed25519; verify them with ${paint(process.stdout, 'bold', key)}`;
            o.result({ type: 'opened', ...opened, forwardTo: target }, () =>
              [
                ready,
                `Forwarding ${count(opened.events.length, 'event type')} to ${target} (stream ${webhookId}). Ctrl-C to quit.`,
              ].join('\n'),
            );
            spinning = o.spin('Waiting for events…');
          } else if (message.event === 'closed') {
            closedBy = (JSON.parse(message.data) as { reason: string }).reason;
          } else if (message.event === 'delivery') {
            const p = handle(JSON.parse(message.data) as StreamDelivery).finally(() => inFlight.delete(p));
            inFlight.add(p);
          }
        }
      } catch (err) {
        if (!stop.signal.aborted) throw new CliError(`the stream broke: ${(err as Error).message}`);
      } finally {
        spinning();
        ended.abort();
        unwatch();
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigint);
      }
      await Promise.allSettled(inFlight);
      if (!stop.signal.aborted) throw new CliError(closedBy);
      o.note('Stream closed.');
    });
}
