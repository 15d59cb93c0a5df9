import { ChildExitError, runSupervisor } from './app/supervisor.ts';

// npm start (docs/processes.md): a supervisor that loads nothing of the application. Its first child reads the
// configuration and migrates, then one API process and WORKERS worker processes run; WORKERS=0 runs the API, every
// worker and the scheduler in that first child. A child that fails to start has printed its one-line error: this
// process adds only which child it was, and exits 1.
runSupervisor().catch((err: unknown) => {
  if (!(err instanceof ChildExitError)) console.error('switchboard: failed to start:', err);
  else if (!err.message.startsWith('the prepare')) console.error(`switchboard: ${err.message}; its error is above`);
  process.exit(1);
});
