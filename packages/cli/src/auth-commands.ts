import type { Command } from 'commander';
import { apiAt, currentCredential, DEFAULT_URL, session } from './api.js';
import { forgetCredential, storeCredential, type StoredCredential } from './credentials.js';
import { cliEnv } from './env.js';
import { CliError, EXIT, type Output } from './output.js';

// login, logout, whoami. A credential is stored only once the API has accepted it.

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** Proves the credential works on account routes: the event catalog answers any session or account key. */
async function check(url: string, token: string): Promise<void> {
  await apiAt(url, token).listEventTypes();
}

export function registerAuthCommands(program: Command, out: () => Output) {
  program
    .command('login')
    .description('Store an account credential: an account key, or a session from email and password')
    .option('--url <url>', 'the API base URL', cliEnv.url ?? DEFAULT_URL)
    .option('--key <key>', 'an account key (ca_acct_…); "-" reads it from stdin')
    .option('--email <email>', 'log in with email and password (the password from stdin or SWITCHBOARD_PASSWORD)')
    .action(async (opts: { url: string; key?: string; email?: string }) => {
      const o = out();
      if (!/^https?:\/\//.test(opts.url)) throw new CliError('--url must be an http(s) URL', EXIT.usage);
      if (!opts.key === !opts.email) throw new CliError('give either --key or --email', EXIT.usage);
      let credential: StoredCredential;
      const stop = o.spin('Checking the credential…');
      try {
        if (opts.key) {
          const token = opts.key === '-' ? await readStdin() : opts.key;
          await check(opts.url, token);
          credential = { url: opts.url, kind: 'key', token };
        } else {
          const password = cliEnv.password ?? (await readStdin());
          const answer = await apiAt(opts.url).logIn({ body: { email: opts.email!, password } });
          credential = { url: opts.url, kind: 'session', token: answer.session.token, email: opts.email };
        }
      } finally {
        stop();
      }
      const file = storeCredential(credential, cliEnv.configDir);
      o.result(
        { url: credential.url, kind: credential.kind, file },
        () => `Logged in to ${credential.url} (${credential.kind}); stored in ${file}`,
      );
    });

  program
    .command('logout')
    .description('Forget the stored credential (and end the session, for an email login)')
    .action(async () => {
      const o = out();
      const stored = currentCredential();
      // Ending the session server-side is best effort: the local file goes whatever the API says.
      if (stored.kind === 'session')
        await apiAt(stored.url, stored.token)
          .logOut()
          .catch(() => undefined);
      forgetCredential(cliEnv.configDir);
      o.result({ loggedOut: true }, () => 'Logged out');
    });

  program
    .command('whoami')
    .description('Show the API, the credential and the account it acts for')
    .action(async () => {
      const o = out();
      const { api, credential } = session();
      await check(credential.url, credential.token);
      // The account needs read:account; a key without it still proves who it is by working above.
      const account = await api.getAccount().catch(() => null);
      const who = {
        url: credential.url,
        kind: credential.kind,
        email: credential.email ?? null,
        account: account ? { id: account.id, name: account.name } : null,
      };
      o.result(who, () =>
        [
          `API:        ${who.url}`,
          `Credential: ${who.kind}${who.email ? ` (${who.email})` : ''}`,
          `Account:    ${who.account ? `${who.account.name} (${who.account.id})` : '(the key may not read the account)'}`,
        ].join('\n'),
      );
    });
}
