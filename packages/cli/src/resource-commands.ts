import type { Command } from 'commander';
import { session } from './api.js';
import { showRecord, table, type Output } from './output.js';

// The everyday commands on keys and agents: thin wrappers over the public API (@switchboard/client), one request each.

type Rows = Array<Record<string, unknown>>;
const list = (o: Output, rows: Rows, columns: string[]) => o.result(rows, () => table(rows, columns));

export function registerResourceCommands(program: Command, out: () => Output) {
  const keys = program.command('keys').description('Account keys and per-agent keys');
  keys
    .command('ls')
    .description('List keys (metadata only)')
    .action(async () => {
      const { api } = session();
      const page = await api.listApiKeys({ query: { limit: 100 } });
      list(out(), page.data, ['id', 'name', 'keyType', 'status', 'scopes', 'expiresAt']);
    });
  keys
    .command('create')
    .description('Create an account key (prints the key once)')
    .requiredOption('--name <name>', 'what it is for')
    .option('--scopes <list>', 'comma-separated scopes (default: all of the account’s)')
    .action(async (opts: { name: string; scopes?: string }) => {
      const { api } = session();
      const body = { name: opts.name, ...(opts.scopes ? { scopes: opts.scopes.split(',') } : {}) };
      showRecord(out(), await api.createAccountKey({ body }));
    });
  keys
    .command('rotate')
    .description('A new secret for a key; the old one works for KEY_ROTATION_GRACE_SECONDS')
    .argument('<id>', 'key_…')
    .action(async (id: string) => {
      const { api } = session();
      showRecord(out(), await api.rotateApiKey({ path: { keyId: id } }));
    });
  keys
    .command('deactivate')
    .description('Deactivate a key for good')
    .argument('<id>', 'key_…')
    .action(async (id: string) => {
      const { api } = session();
      showRecord(out(), await api.deactivateApiKey({ path: { keyId: id } }));
    });

  const agents = program.command('agents').description('Agents');
  agents
    .command('ls')
    .description('List agents')
    .action(async () => {
      const { api } = session();
      const page = await api.listAgents({ query: { limit: 100 } });
      list(out(), page.data, ['id', 'name', 'status', 'createdAt']);
    });
}
