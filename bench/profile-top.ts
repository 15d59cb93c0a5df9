import { readFileSync } from 'node:fs';
import { summarizeProfile, type CpuProfile } from './cpu-profile.js';

// `npx tsx bench/profile-top.ts <file.cpuprofile>`: a service process's profile (BENCH_EVENTS_PROFILE_DIR) summed
// per part of the pipeline (bench/cpu-profile.ts), then the functions with the most self time.

const file = process.argv[2];
if (!file) throw new Error('usage: tsx bench/profile-top.ts <file.cpuprofile>');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const { totalMs, parts } = summarizeProfile(profile);
console.log(`busy ${Math.round(totalMs)} ms`);
for (const [part, ms] of Object.entries(parts).sort((a, b) => b[1] - a[1]))
  console.log(`  ${part}: ${Math.round(ms)} ms (${((ms / totalMs) * 100).toFixed(1)} %)`);

const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
profile.samples.forEach((id, i) => {
  const { functionName, url } = byId.get(id)!.callFrame;
  if (functionName === '(idle)' || functionName === '(program)') return;
  const at = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')}`;
  self.set(at, (self.get(at) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});
console.log('self time:');
for (const [at, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${Math.round(ms)} ms ${at}`);
