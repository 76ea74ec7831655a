/**
 * What the SSH proxy's end-to-end tests share, as database-test-kit.ts is for the database
 * proxies: the real server on loopback, a cluster "Lab" whose real gateway (dialled in with the
 * cluster key from the install script) runs the SSH proxy on a free loopback port, the real sshd
 * as a Linux resource of the cluster, a workgroup granting it to the member erin@demo.local, her
 * stock OpenSSH client with its key registered, and her code for it. Test-only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import {
  startGateway,
  type Gateway,
  type GatewayOptions,
} from '../../../../gateway/src/control/client';
import { freePort } from '../../../../gateway/src/test/net';
import { startSshd, type SshdPeer } from '../../../../../scripts/peers/sshd.mjs';
import { createTestApp, type TestApp, type TestClient } from '../../test/harness';
import {
  addMembersTo,
  addResourcesTo,
  listeningWithCluster,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';
import { openSshClient, type OpenSshClient } from './openssh.test-helpers';

type SshProxyOptions = NonNullable<GatewayOptions['sshProxy']>;

/** The parts of the stack that vary between tests; the rest is the same everywhere. */
export interface SshStackOptions {
  /** The workgroup's name (alarms and online lists show it). */
  workgroup: string;
  /** The resource's name (default "sshd"). */
  resourceName?: string;
  /** The resource's login user, sshd's own account: 0 password (the default), 1 key, 2 team. */
  authType?: 0 | 1 | 2;
  /** The sshd peer's settings: an sftp subsystem, or an account of the test's own. */
  sshd?: Parameters<typeof startSshd>[0];
  /** The port the resource points at (default sshd's): a relay in front of sshd. */
  targetPort?: (sshd: SshdPeer) => number | Promise<number>;
  /** The URL the gateway dials (default the server's address): a relay the test can break. */
  serverUrl?: (address: string) => string | Promise<string>;
  /** Gateway settings beyond the SSH proxy's; `webTerminal` runs that too. */
  gateway?: Pick<GatewayOptions, 'backoff'> &
    Pick<SshProxyOptions, 'workers'> & { webTerminal?: boolean };
  /**
   * Runs before the gateway starts and the code is made, for the cluster settings a code
   * depends on: a code asks for security mode only where its cluster has it on.
   */
  prepare?: (stack: { t: TestApp; admin: TestClient; clusterId: number }) => Promise<void>;
  /** Fields of the code beside its project resource (`safe_mode`). */
  code?: Record<string, unknown>;
}

export interface SshStack {
  t: TestApp;
  /** The server's address (what the gateway dials, unless `serverUrl` put a relay between). */
  address: string;
  admin: TestClient;
  /** The member (erin@demo.local) granted the resource through the workgroup. */
  erin: { id: number; client: TestClient };
  gateway: Gateway;
  sshd: SshdPeer;
  /** Erin's OpenSSH client, its key registered as hers; its folder is `dir`. */
  client: OpenSshClient;
  /** A temporary folder: the client's files, and the gateway's data in `gateway/`. */
  dir: string;
  /** The gateway's SSH proxy, on 127.0.0.1. */
  port: number;
  /** The cluster "Lab" the gateway serves. */
  clusterId: number;
  /** The cluster key the gateway dialled in with. */
  key: string;
  resourceId: number;
  workgroupId: number;
  /** The resource in the workgroup, as codes and web terminal tokens name it. */
  projectResource: number;
  /** Erin's code for the resource, and its id. */
  code: string;
  codeId: number;
  /** Stops the gateway, sshd and the server, and removes `dir`; a test's own relay is its own. */
  stop(): Promise<void>;
}

/**
 * Adds sshd as a Linux resource of the cluster at 127.0.0.1 (at `port` when given, else sshd's
 * own); its login user is sshd's account, with its password for auth_type 0 (the default).
 */
export async function addSshdResource(
  admin: TestClient,
  clusterId: number,
  sshd: SshdPeer,
  resource: { name: string; authType?: 0 | 1 | 2; port?: number },
): Promise<number> {
  const authType = resource.authType ?? 0;
  const res = await admin.post('/api/v1/resource', {
    network_id: clusterId,
    name: resource.name,
    ip_address: '127.0.0.1',
    os: 'linux',
    port: resource.port ?? sshd.port,
    login_users: [
      {
        username: sshd.user,
        auth_type: authType,
        ...(authType === 0 && { password: sshd.password }),
      },
    ],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
}

/** Starts the stack; what was started is stopped again if a step fails. */
export async function startSshStack(options: SshStackOptions): Promise<SshStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-ssh-stack-'));
  let t: TestApp | undefined;
  let sshd: SshdPeer | undefined;
  let gateway: Gateway | undefined;
  const stop = async (): Promise<void> => {
    await gateway?.stop();
    await sshd?.stop();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    t = await createTestApp();
    const { address, admin, clusterId, key } = await listeningWithCluster(t);
    sshd = await startSshd(options.sshd);
    const resourceId = await addSshdResource(admin, clusterId, sshd, {
      name: options.resourceName ?? 'sshd',
      authType: options.authType,
      port: await options.targetPort?.(sshd),
    });
    const workgroupId = await createWorkgroup(admin, options.workgroup);
    await addResourcesTo(admin, workgroupId, [resourceId]);
    const erin = await member(t, 'erin@demo.local');
    await addMembersTo(admin, workgroupId, [erin.id]);
    const projectResource = await projectResourceId(admin, workgroupId, resourceId);
    await options.prepare?.({ t, admin, clusterId });

    const port = await freePort();
    const webPort = options.gateway?.webTerminal ? await freePort() : undefined;
    const dataDir = path.join(dir, 'gateway');
    gateway = startGateway({
      server: options.serverUrl ? await options.serverUrl(address) : address,
      key,
      host: '127.0.0.1',
      ports: { ssh_port: port, ...(webPort !== undefined && { webssh_port: webPort }) },
      ...(options.gateway?.backoff && { backoff: options.gateway.backoff }),
      sshProxy: {
        dataDir,
        listenHost: '127.0.0.1',
        ...(options.gateway?.workers && { workers: options.gateway.workers }),
      },
      ...(webPort !== undefined && { webTerminal: { dataDir, listenHost: '127.0.0.1' } }),
    });
    await gateway.connected;
    await gateway.sshProxy;
    if (webPort !== undefined) await gateway.webTerminal;

    const client = await openSshClient(dir);
    const added = await erin.client.post('/api/account_pubkey', {
      title: 'laptop',
      pubkey: client.publicKey,
    });
    expect(added.statusCode, added.body).toBe(200);
    const made = await erin.client.post('/api/tunnel', {
      project_resource_id: projectResource,
      ...options.code,
    });
    expect(made.statusCode, made.body).toBe(200);
    const { id: codeId, code } = made.json() as { id: number; code: string };
    return {
      t,
      address,
      admin,
      erin,
      gateway,
      sshd,
      client,
      dir,
      port,
      clusterId,
      key,
      resourceId,
      workgroupId,
      projectResource,
      code,
      codeId,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
