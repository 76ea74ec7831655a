/**
 * Registers a contract route descriptor: its schemas validate the request and shape the reply
 * (fields not in the reply schema never leave the server), and its `access` is enforced first.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDescriptor } from '@portcullis/contract';
import { accessHook } from './auth';
import { assertCsrf } from '../external/security';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** From the route descriptor: skip the CSRF check (the route proves itself otherwise). */
    csrfExempt?: boolean;
  }
}

type Out<T> = NonNullable<T> extends z.ZodType ? z.output<NonNullable<T>> : undefined;

export interface RouteInput<D extends RouteDescriptor> {
  params: Out<D['params']>;
  query: Out<D['query']>;
  body: Out<D['body']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** JSON routes return their reply; non-JSON routes (images, files) send it themselves. */
export type RouteHandler<D extends RouteDescriptor> = (
  input: RouteInput<D>,
) => Promise<Out<D['reply']> | FastifyReply>;

/** Fastify path syntax is the contract's (`:name`). */
export function registerRoute<D extends RouteDescriptor>(
  app: FastifyInstance,
  route: D,
  handler: RouteHandler<D>,
): void {
  const schema: Record<string, unknown> = { summary: route.summary };
  if (route.params) schema.params = route.params;
  if (route.query) schema.querystring = route.query;
  if (route.body) schema.body = route.body;
  if (route.reply) schema.response = { 200: route.reply };
  app.route({
    method: route.method,
    url: route.path,
    schema,
    config: { csrfExempt: route.csrfExempt === true },
    onRequest: route.changesState
      ? [accessHook(route.access), async (request) => assertCsrf(request)]
      : accessHook(route.access),
    handler: async (request, reply) => {
      const result = await handler({
        params: request.params as Out<D['params']>,
        query: request.query as Out<D['query']>,
        body: request.body as Out<D['body']>,
        request,
        reply,
      });
      return result;
    },
  });
}
