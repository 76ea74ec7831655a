/**
 * The world the code tests share: a cluster with a connected gateway holding a Linux server, a
 * Windows server and a MySQL database, a cluster without a gateway, one workgroup with an
 * ordinary member (erin) and a workgroup administrator (frank), and a member outside it (gina).
 * Test-only; nothing in the server imports it.
 */
import { signedIn, type TestApp, type TestClient } from '../../test/harness';
import {
  addLinux,
  addMembersTo,
  addMysql,
  addResourcesTo,
  addWindows,
  connectGateway,
  createCluster,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';

export interface CodeWorld {
  admin: TestClient;
  lab: number;
  dark: number;
  wg: number;
  /** Project resource ids in the workgroup. */
  web: number;
  win: number;
  db: number;
  /** A Linux server of the cluster without a gateway, in the workgroup. */
  darkWeb: number;
  erin: { id: number; client: TestClient };
  frank: { id: number; client: TestClient };
  gina: { id: number; client: TestClient };
}

export async function codeWorld(t: TestApp): Promise<CodeWorld> {
  const admin = await signedIn(t);
  const lab = (await createCluster(admin, 'Lab')).id;
  const dark = (await createCluster(admin, 'Dark')).id;
  await connectGateway(t, lab);
  await connectGateway(t, dark, { live: false });
  const resources = [
    await addLinux(admin, lab, 'web-1', '10.0.0.1'),
    await addWindows(admin, lab, 'win-1', '10.0.0.2'),
    await addMysql(admin, lab, 'orders-db', '10.0.0.3'),
    await addLinux(admin, dark, 'dark-1', '10.9.0.1'),
  ];
  const wg = await createWorkgroup(admin, 'Codes');
  await addResourcesTo(admin, wg, resources);
  const erin = await member(t, 'erin@demo.local');
  const frank = await member(t, 'frank@demo.local');
  const gina = await member(t, 'gina@demo.local');
  await addMembersTo(admin, wg, [erin.id]);
  await addMembersTo(admin, wg, [frank.id], 1);
  const [web, win, db, darkWeb] = await Promise.all(
    resources.map((r) => projectResourceId(admin, wg, r)),
  );
  return {
    admin,
    lab,
    dark,
    wg,
    web: web!,
    win: win!,
    db: db!,
    darkWeb: darkWeb!,
    erin,
    frank,
    gina,
  };
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
