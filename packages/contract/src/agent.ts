/**
 * Gateway distribution and key login set-up: the install script and bundle the server serves,
 * and the key test / key upload calls of a resource (spec 2 §7 Resources).
 *
 * The two downloads are marked public because a gateway host has no console session: they
 * prove themselves with the cluster key in the `authorization: Bearer` header instead, and
 * answer 401 `InvalidToken` without it (see {@link CLUSTER_KEY_ROUTES}).
 */
import { z } from 'zod';
import { defineRoute, PUBLIC, type RouteDescriptor } from './http';
import { IdParamsSchema } from './common';
import { CONFIGURATION } from './cluster';
import { TaskIdSchema } from './resource';

/** A release version as the install script and the bundle route accept it. */
export const GATEWAY_VERSION_PATTERN = /^\d{1,4}\.\d{1,4}\.\d{1,4}(-[0-9A-Za-z.]{1,20})?$/;

export const BundleQuerySchema = z.object({
  /** Which version to download; the published one when absent. */
  version: z.string().regex(GATEWAY_VERSION_PATTERN).optional(),
});

export const UploadKeyBodySchema = z.object({
  /** A login user of the server. */
  username: z.string().trim().min(1).max(64),
  /** That user's password, used by the gateway for this one upload and kept nowhere. */
  password: z.string().min(1).max(1024),
});

export const TestKeyBodySchema = z.object({
  username: z.string().trim().min(1).max(64),
});

export const KeyTaskStatusSchema = z.object({
  status: z.enum(['pending', 'success', 'failed']),
  /** '' unless failed: a fixed word from the gateway (auth_failed, key_refused, timeout, …). */
  reason: z.string(),
  /** Set when failed: the catalogue code whose text the console shows. */
  code: z.literal('SetAutologinFailed').optional(),
});
export type KeyTaskStatus = z.infer<typeof KeyTaskStatusSchema>;

export const agentRoutes = {
  installScript: defineRoute({
    method: 'GET',
    path: '/agent/install.sh',
    summary:
      'The gateway install script (install, update, rollback, uninstall); needs the cluster key as a Bearer token',
    access: PUBLIC,
  }),
  bundle: defineRoute({
    method: 'GET',
    path: '/agent/bundle.js',
    summary:
      'The gateway as one JavaScript file for Node 20 (the published version by default); needs the cluster key as a Bearer token',
    access: PUBLIC,
    query: BundleQuerySchema,
  }),
  uploadKey: defineRoute({
    method: 'POST',
    path: '/resource/:id/autologin',
    summary:
      'Install the server’s own key pair in a login user’s authorized_keys (password used once); poll the task',
    access: CONFIGURATION,
    params: IdParamsSchema,
    body: UploadKeyBodySchema,
    reply: TaskIdSchema,
  }),
  uploadKeyStatus: defineRoute({
    method: 'GET',
    path: '/autologin_query',
    summary: 'The result of a key upload',
    access: CONFIGURATION,
    query: TaskIdSchema,
    reply: KeyTaskStatusSchema,
  }),
  testKey: defineRoute({
    method: 'POST',
    path: '/resource/:id/test_autologin',
    summary: 'Ask the cluster’s gateway to log in to a server with its key; poll the task',
    access: CONFIGURATION,
    params: IdParamsSchema,
    body: TestKeyBodySchema,
    reply: TaskIdSchema,
  }),
  testKeyStatus: defineRoute({
    method: 'GET',
    path: '/test_autologin_query',
    summary: 'The result of a key test',
    access: CONFIGURATION,
    query: TaskIdSchema,
    reply: KeyTaskStatusSchema,
  }),
} as const satisfies Record<string, RouteDescriptor>;

/**
 * Public routes that authenticate by the cluster key instead of a session: anyone without a
 * valid key gets 401 `InvalidToken`, signed in or not.
 */
export const CLUSTER_KEY_ROUTES: readonly RouteDescriptor[] = [
  agentRoutes.installScript,
  agentRoutes.bundle,
];
