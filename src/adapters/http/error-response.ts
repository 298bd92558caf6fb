import type { Context } from 'koa';
import { catalogueEntryOf, detailsOf, type DomainError } from '../../domain/errors.js';

export interface ErrorBody {
  readonly code: number;
  readonly message: string;
  readonly details?: string;
}

/** The one place that turns a DomainError into what the client sees. */
export function errorResponse(error: DomainError): { status: number; body: ErrorBody } {
  const { code, status, message } = catalogueEntryOf(error);
  const details = detailsOf(error);
  return { status, body: details === undefined ? { code, message } : { code, message, details } };
}

export function sendError(ctx: Context, error: DomainError): void {
  const { status, body } = errorResponse(error);
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = body;
  if (error._tag === 'MethodNotAllowed') ctx.set('Allow', error.allowed.join(', '));
  if (error._tag === 'RateLimited' && error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(error.retryAfterSeconds));
}
