import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChild } from '../../../test/helpers/children.js';

// The package as npm publishes it: `npm pack` of a copy of packages/webhooks (its prepack builds dist/ there, so
// the checkout's own dist/ is left alone), installed into a scratch project that imports it with plain Node, with
// no condition and nothing of the repository, and type-checks against its declarations.

const PACKAGE = fileURLToPath(new URL('../', import.meta.url));

let dir: string;
let files: string[];
let consumer: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-webhooks-pack-'));
  const copy = join(dir, 'webhooks');
  for (const entry of ['package.json', 'README.md', 'tsconfig.build.json', 'src', 'test']) {
    cpSync(join(PACKAGE, entry), join(copy, entry), { recursive: true });
  }
  const { stdout: out } = await runChild('npm', ['pack', '--json', '--pack-destination', dir], { cwd: copy });
  const [packed] = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string; files: { path: string }[] }>;
  files = packed!.files.map((f) => f.path).sort();
  consumer = join(dir, 'consumer');
  mkdirSync(join(consumer, 'node_modules'), { recursive: true });
  await runChild('tar', ['xzf', join(dir, packed!.filename), '-C', join(consumer, 'node_modules')]);
  mkdirSync(join(consumer, 'node_modules', '@switchboard'));
  renameSync(join(consumer, 'node_modules', 'package'), join(consumer, 'node_modules', '@switchboard', 'webhooks'));
  writeFileSync(join(consumer, 'package.json'), '{ "type": "module" }');
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// The vector the standardwebhooks JavaScript library tests its signer with.
const CONSUMER_SOURCE = `
import { verify, WebhookVerificationError } from '@switchboard/webhooks';
const headers = {
  'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  'webhook-timestamp': '1614265330',
  'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const key = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const now = () => new Date(1614265330 * 1000);
const envelope = await verify('{"test": 2432232314}', headers, key, { now });
const reason = await verify('{"test": 1}', headers, key, { now }).catch((e) => e instanceof WebhookVerificationError && e.reason);
console.log(JSON.stringify({ envelope, reason }));
`;

describe('the published package', () => {
  it('holds the built JavaScript, its declarations, the README and package.json, and no source or tests', () => {
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('README.md');
    expect(files).toContain('package.json');
    expect(files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json')).toEqual([]);
    expect(files.filter((f) => /test/.test(f))).toEqual([]);
    const manifest = JSON.parse(
      readFileSync(join(consumer, 'node_modules/@switchboard/webhooks/package.json'), 'utf8'),
    );
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  it('runs in plain Node from dist/, with no condition', async () => {
    writeFileSync(join(consumer, 'consumer.mjs'), CONSUMER_SOURCE);
    const { stdout: out } = await runChild(process.execPath, ['consumer.mjs'], { cwd: consumer });
    expect(JSON.parse(out)).toEqual({ envelope: { test: 2432232314 }, reason: 'no_matching_signature' });
  });

  it('type-checks a consumer against its declarations, under NodeNext and bundler resolution', () => {
    writeFileSync(
      join(consumer, 'consumer.ts'),
      `import { verify, type WebhookEnvelope, type VerificationFailure, type HeadersLike } from '@switchboard/webhooks';
const headers: HeadersLike = { 'webhook-id': 'x' };
export const envelope: Promise<WebhookEnvelope> = verify(new Uint8Array(), headers, ['whsec_a', 'whpk_b']);
export const reason: VerificationFailure = 'outside_tolerance';
// @ts-expect-error not a reason
export const wrong: VerificationFailure = 'expired';
`,
    );
    for (const [module, moduleResolution] of [
      [ts.ModuleKind.NodeNext, ts.ModuleResolutionKind.NodeNext],
      [ts.ModuleKind.ESNext, ts.ModuleResolutionKind.Bundler],
    ] as const) {
      const program = ts.createProgram([join(consumer, 'consumer.ts')], {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        types: [],
        module,
        moduleResolution,
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    }
  }, 300_000);
});
