/**
 * GET /resource/all_name (spec 1 §7 Logs, "Name lists"): the resource names the action log's
 * advanced search offers for its resource-name filter. A reader of the team's log (roles 1, 2
 * and 4) gets every resource of the team; an ordinary member only the resources of their own
 * sessions, the only ones their log can show (a name list is no way to learn what others reach).
 */
import { z } from 'zod';
import { ACTION_LOG_ROLES } from './action-log';
import { defineRoute, roles } from './http';

export const ResourceNameSchema = z.object({
  id: z.number().int(),
  name: z.string(),
});
export type ResourceName = z.infer<typeof ResourceNameSchema>;

export const resourceNameRoutes = {
  resourceNames: defineRoute({
    method: 'GET',
    path: '/resource/all_name',
    summary: 'The resource names the action log search offers (id and name, by name)',
    access: roles(ACTION_LOG_ROLES),
    reply: z.array(ResourceNameSchema),
  }),
} as const;
