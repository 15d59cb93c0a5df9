import type { Context, Middleware } from 'koa';
import { ZodError } from 'zod';
import { AppError } from '../../platform/errors.js';
import { isBackendUnavailable } from '../../platform/outage.js';
import {
  describeRefusedInput,
  isRefusedInput,
  isTransactionRolledBack,
  refusedInputError,
} from '../../platform/pg-errors.js';
import { hideUrlCredentials, hideUrlCredentialsIn } from '../../platform/url-password.js';
import { validationError } from '../../platform/validation.js';
import type { AppState } from '../context.js';

function toAppError(err: unknown, log: AppState['log'], route: string): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return validationError(err);
  if (isRefusedInput(err)) {
    // Validation let through input the database refused: answered as the client's error, logged so that the
    // missing rule gets added.
    log.warn({ route, ...describeRefusedInput(err) }, 'the database refused input that validation accepted');
    return refusedInputError(err);
  }
  if (isBackendUnavailable(err))
    return new AppError('unavailable', 'A backing service is unavailable; nothing was changed. Retry shortly');
  if (isTransactionRolledBack(err)) {
    log.warn({ route, pgCode: (err as { code: string }).code }, 'transaction rolled back by a concurrent one');
    return new AppError('unavailable', 'The request collided with a concurrent one; nothing was changed. Retry it');
  }
  return null;
}

/** RFC 6750 §3.1: the scope the request needs, so an OAuth client can ask for it (step-up). */
const insufficientScopeChallenge = (scope: unknown) =>
  typeof scope === 'string'
    ? `Bearer error="insufficient_scope", scope="${scope}"`
    : 'Bearer error="insufficient_scope"';

/**
 * Renders every error in the one error shape (docs/adr/0001-error-shape.md). Unknown errors are logged and answered
 * 500, with no detail.
 */
export function errorRenderer(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}`);
    } catch (err) {
      const known = toAppError(err, ctx.state.log, `${ctx.method} ${ctx.state.routePath ?? ctx.path}`);
      const appError = known ?? new AppError('internal_error', 'Something went wrong on our side; it has been logged');
      if (!known) ctx.state.log.error({ err }, 'unhandled error');
      else if (appError.code === 'unavailable') ctx.state.log.warn({ err }, 'dependency unavailable');
      writeError(ctx, appError);
    }
  };
}

/**
 * Writes an error in the contract's shape; for the few middlewares that answer before errorRenderer runs. Every
 * error body goes through here, so this is where a URL echoed from the input (a refused destination, a field's
 * message) loses its credentials, whatever the route, the field or the error.
 */
export function writeError(ctx: Context & { state: AppState }, appError: AppError): void {
  ctx.status = appError.status;
  for (const [name, value] of Object.entries(appError.headers ?? {})) ctx.set(name, value);
  // An error may bring its own challenge (the MCP endpoints name their OAuth resource metadata).
  if (!appError.headers?.['WWW-Authenticate']) {
    if (appError.status === 401) ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
    if (appError.code === 'insufficient_scope')
      ctx.set('WWW-Authenticate', insufficientScopeChallenge(appError.details?.requiredScope));
  }
  ctx.body = {
    error: {
      type: appError.type,
      code: appError.code,
      message: hideUrlCredentials(appError.message),
      requestId: ctx.state.requestId,
      ...(appError.details ? { details: hideUrlCredentialsIn(appError.details) } : {}),
    },
  };
}
