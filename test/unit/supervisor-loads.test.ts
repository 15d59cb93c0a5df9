import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// npm start runs src/main.ts on Node's own type stripping, which resolves no `.js` import to its `.ts` source: the
// supervisor and everything it imports name their `.ts` files (docs/processes.md). A `.js` import anywhere in that
// tree stops npm start on a checkout without a build.
describe('npm start on the sources', () => {
  it('loads the supervisor and all it imports without tsx', () => {
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('./src/app/supervisor.ts')"], {
      encoding: 'utf8',
    });
    expect(res.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
    expect(res.status).toBe(0);
  });
});
