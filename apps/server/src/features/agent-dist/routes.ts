import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';

export function registerAgentDistRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
