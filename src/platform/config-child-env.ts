// The environment npm start hands its children. Part of the configuration module, which alone reads process.env,
// and without imports: the supervisor loads it under Node's type stripping (src/app/supervisor.ts).

/**
 * The environment of a child process of npm start: this process's environment with `overrides` on top (the
 * database and Redis the first child resolved, so that later children never start development fallbacks of their
 * own).
 */
export function childProcessEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}
