/**
 * Turns every failure into `{ code, error_message }` with the catalogue's status. Schema
 * failures become InvalidParameter naming the first bad field; anything unexpected is logged
 * and answered as UnknowError without its text.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  errorStatus,
  formatError,
  type ErrorCode,
  type ErrorParams,
  type Language,
} from '@portcullis/contract';
import { AppError } from '../../lib/app-error';

export function requestLanguage(request: FastifyRequest): Language {
  const header = String(request.headers['accept-language'] ?? '');
  return /^zh/i.test(header.trim()) ? 'zh_CN' : 'en_US';
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  params: ErrorParams = {},
  field?: string,
): FastifyReply {
  const body: { code: string; error_message: string; field?: string } = {
    code,
    error_message: formatError(code, requestLanguage(request), params),
  };
  if (field) body.field = field;
  return reply.status(errorStatus(code)).type('application/json').send(body);
}

function fieldOf(error: FastifyError): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return 'body';
  const first = error.validation[0];
  const where = error.validationContext ?? 'body';
  const path = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') ?? '';
  return path ? path : where;
}

export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return sendError(request, reply, error.code, error.params, error.field);
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const field = fieldOf(error);
      return sendError(request, reply, 'InvalidParameter', { field }, field);
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Past the server-wide body limit; each upload route checks its own smaller limit first.
      return sendError(request, reply, 'FileTooLarge', { size: '16M' });
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, wrong content type and similar client mistakes.
      return sendError(request, reply, 'InvalidParameter', { field: 'body' }, 'body');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 'UnknowError');
  });
});
