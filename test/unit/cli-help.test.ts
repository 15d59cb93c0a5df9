import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../packages/cli/src/program.js';

const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];

describe('switchboard --help', () => {
  it('describes every command and its options', () => {
    const commands = all(buildProgram());
    expect(commands.map((c) => c.name())).toEqual(
      expect.arrayContaining([
        'login',
        'logout',
        'whoami',
        'listen',
        'trigger',
        'redeliver',
        'rotate-secret',
        'deactivate',
      ]),
    );
    for (const c of commands) {
      expect(c.description(), c.name()).not.toBe('');
      expect(c.helpInformation()).toMatch(/^Usage: /);
      for (const o of c.options) expect(o.description, `${c.name()} ${o.flags}`).not.toBe('');
    }
  });
});
