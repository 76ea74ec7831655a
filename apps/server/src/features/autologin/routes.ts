import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';

export function registerAutologinRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
