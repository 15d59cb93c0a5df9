import { describe, expect, it } from 'vitest';
import { runChild } from '../helpers/children.js';

// The helper every test runs a command through (test/helpers/children.ts): its result is the command's, whatever
// the command does with the input it is given.
describe('runChild', () => {
  it('answers a command that exits without reading its input, the pipe closed under the write (EPIPE)', async () => {
    const res = await runChild('sh', ['-c', 'exit 3'], { input: 'x'.repeat(8_000_000) });
    expect(res).toMatchObject({ status: 3, signal: null });
  });

  it('hands the input to a command that reads it', async () => {
    const res = await runChild('sh', ['-c', 'wc -c'], { input: 'hello' });
    expect(res.stdout.trim()).toBe('5');
  });
});
