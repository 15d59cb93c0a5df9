import { describe, expect, it } from 'vitest';
import { citationsIn, commentsOf } from '../../scripts/citations.js';

// The lint check that keeps the history of the work out of comments (scripts/check-citations.ts): what it flags,
// what it leaves alone, and that it reads comments only.

const flagged = (comment: string) => citationsIn(`const a = 1;\n${comment}\nexport { a };\n`);

describe('citations of the history of the work in comments', () => {
  it.each([
    '// Records wait 20 ms (docs/performance.md, tenth pass).',
    '// The fifth pass added a window.',
    '/* measured in the 12th pass */',
    '// Kept as it was in pass 3.',
    '// Figures of this session, on a slow host.',
    '// See the last session for the profile.',
    '// A later session may shard it.',
    "// The chart is run B's.",
    '// Runs G and H met every goal.',
    '// The chart from run 4.',
    '// Hostile input (issue 11).',
    '// See issue #46 for the story.',
    '// Fixed in #46.',
    '// Answered before its jobs are added (decision 82).',
    '// Decisions 72-76 cover ordering.',
    // Split, so the doc-link check does not read it as a link of this file.
    '// Why: docs/' + 'decisions.md#webhook-retries.',
    "// Measured on 2026-11-28's host.",
    '/**\n * A doc comment whose second line cites the runs of 2026-11-27.\n */',
  ])('flags %j', (comment) => {
    expect(flagged(comment)).toHaveLength(1);
  });

  it.each([
    '// Records wait up to 20 ms to share one statement (docs/webhooks.md#endpoint-health).',
    '// The sweep is the periodic pass that schedules outbox rows nobody scheduled.',
    '// On a slow host the floor alone can pass 300 ms.',
    '// About a fifth of the CPU of a POST.',
    '// Log out (end this session).',
    "// A form without this session's token changes nothing.",
    '// The session token of the request, if it carries one.',
    '// sessions.service.ts ends the MCP session when its key is deleted.',
    '// Each side runs 3 rounds; a run takes 40 s.',
    '// A worker runs 20 jobs at once.',
    '// Each process runs N jobs at once.',
    '// PKCS#8 DER prefix of an Ed25519 private key.',
    '// The stateless MCP revision (2026-07-28), beside 2025-06-18 and 2025-11-25.',
    '// https://modelcontextprotocol.io/specification/2026-07-28/basic/index#meta',
    '// https://github.com/taskforcesh/bullmq/issues/4138',
    "// The envelope's apiVersion is 2026-11-01.",
    "// e.g. recoverSince: '2026-11-24T08:00:00Z'",
    '// Every decision of the error shape is in docs/api.md.',
  ])('leaves %j alone', (comment) => {
    expect(flagged(comment)).toEqual([]);
  });

  it('names the line of the comment that cites, in a file', () => {
    const source = "import x from 'y';\n\n/**\n * Batched.\n * Added by the ninth pass.\n */\nexport const z = x;\n";
    expect(citationsIn(source)).toEqual([
      { line: 5, text: '* Added by the ninth pass.', reason: 'cites a pass of the work' },
    ]);
  });

  it('reads comments only, never strings or code', () => {
    const source = [
      "const doc = 'docs/' + 'decisions.md#webhook-retries'; // a fixture",
      'const summary = `the fifth pass of issue 11, 2026-11-28`;',
      'const run = { label: "run B" };',
    ].join('\n');
    expect(citationsIn(source)).toEqual([]);
    expect(commentsOf(source).map((c) => c.text)).toEqual(['// a fixture']);
  });
});
