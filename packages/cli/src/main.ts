import { run } from './program.js';

// The entry point of `switchboard` (bin/switchboard.js runs it); the exit code says how it went (docs/cli.md).
process.exitCode = await run(process.argv);
