/**
 * Fixtures shared by the team and system-log tests: a second team (to prove that one team
 * never sees or touches another's members, groups and logs) and the welcome mail of a member.
 * Test-only; nothing in the server imports it.
 */
import { outbox, type TestApp, type TestClient } from '../../test/harness';
import { createTeam } from '../company/teams';

export const OTHER_TEAM = 'otherteam';
export const OTHER_ADMIN = 'boss@other.local';
export const OTHER_PASSWORD = 'Other#Pass1';

/** Creates the second team and returns its administrator's account id. */
export async function createOtherTeam(t: TestApp): Promise<{ companyId: number; adminId: number }> {
  const { company, account } = await createTeam(t.ctx, {
    domain: OTHER_TEAM,
    fullName: 'Other Ltd',
    contactName: 'Boss',
    contactAddress: 'Somewhere 1',
    contactPhone: '',
    email: OTHER_ADMIN,
    admin: { account: OTHER_ADMIN, name: 'Boss', password: OTHER_PASSWORD },
  });
  return { companyId: company.id, adminId: account.id };
}

/** A client signed in as the second team's administrator. */
export async function otherTeamAdmin(t: TestApp): Promise<TestClient> {
  const c = t.client();
  const res = await c.login(OTHER_TEAM, OTHER_ADMIN, OTHER_PASSWORD);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return c;
}

/**
 * The password link of the last mail sent to `email`, decoded from quoted-printable. Mails
 * are picked by recipient, because two sent within one millisecond sort in either order.
 */
export function mailLinkFor(t: TestApp, email: string): URL {
  const links = outbox(t, 'mail')
    .map((m) => m.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .map((text) => /https?:\/\/\S+\/resetpassword\?\S+/.exec(text)?.[0])
    .filter((l): l is string => l !== undefined)
    .map((l) => new URL(l))
    .filter((u) => u.searchParams.get('account') === email);
  const last = links[links.length - 1];
  if (!last) throw new Error(`no mail with a link for ${email}`);
  return last;
}
