import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';

export function registerSsoRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
