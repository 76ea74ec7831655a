/**
 * SAML 2.0 single sign-on end to end, against a real identity provider that the test starts as
 * a second process (test-idp/idp.ts: its own key pair and certificate, signing with
 * xml-crypto). The browser's part is played over real HTTP at the provider and by inject at our
 * server; the ACS post arrives like a cross-site form post: no cookies, no CSRF header.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { SSO_METADATA_MAX_BYTES } from '@portcullis/contract';
import { nowSeconds } from '../../lib/time';
import {
  addMember,
  createTestApp,
  signedIn,
  TEAM,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { passwordSignInAllowed, spUrls, ssoOption } from './config';
import {
  readForm,
  signInAtIdp,
  startTestIdp,
  type IdpAnswer,
  type TestIdp,
} from './test-idp/client';

const CORP = 'corp.example';

function xmlFile(xml: string, fileName = 'idp-metadata.xml') {
  return { file_name: fileName, content: Buffer.from(xml, 'utf8').toString('base64') };
}

describe('single sign-on (SAML 2.0)', () => {
  let t: TestApp;
  let idp: TestIdp;
  let admin: TestClient;
  let sp: ReturnType<typeof spUrls>;

  beforeAll(async () => {
    t = await createTestApp();
    sp = spUrls(t.ctx, { domain_key: TEAM });
    idp = await startTestIdp({ entityId: sp.entityId, acsUrl: sp.acsUrl });
    admin = await signedIn(t);
  });
  afterAll(async () => {
    await idp?.stop();
    await t?.close();
  });

  const openConfig = async (overrides: Record<string, unknown> = {}) =>
    admin.patch('/api/sso/update_config', {
      is_open: true,
      is_account_password: true,
      sso_type: 'SAML2.0',
      id_vendor: 'Test IdP',
      access_white_list: [CORP],
      ...overrides,
    });

  /** Our redirect to the provider, in a browser (client) of its own. */
  async function startLogin(browser: TestClient): Promise<string> {
    const res = await browser.get(`/api/auth/sso/login/${TEAM}`);
    expect(res.statusCode, res.body).toBe(302);
    return String(res.headers.location);
  }

  /** The provider's form post to our ACS: cross-site, so without cookies or CSRF header. */
  async function postAcs(answer: Pick<IdpAnswer, 'SAMLResponse' | 'RelayState'>) {
    const form = new URLSearchParams({ SAMLResponse: answer.SAMLResponse });
    if (answer.RelayState) form.set('RelayState', answer.RelayState);
    return t.app.inject({
      method: 'POST',
      url: `/api/auth/sso/acs/${TEAM}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
  }

  function tokenOf(location: string): string {
    const url = new URL(location, 'http://console.local');
    expect(url.pathname).toBe('/login');
    return url.searchParams.get('sso_token') ?? '';
  }

  /** The whole sign-in: our redirect, the provider's login, the ACS, the credential. */
  async function ssoSignIn(email: string, options: { variant?: string; name?: string } = {}) {
    const browser = t.client();
    const answer = await signInAtIdp(await startLogin(browser), email, options);
    expect(answer.action).toBe(sp.acsUrl);
    const acs = await postAcs(answer);
    return { browser, answer, acs };
  }

  async function accountRow(email: string) {
    return t.ctx.db
      .selectFrom('account')
      .selectAll()
      .where('account', '=', email)
      .executeTakeFirst();
  }

  it('shows our entity ID, ACS and login URLs before anything is configured', async () => {
    const res = await admin.get('/api/sso/config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      is_open: false,
      is_account_password: true,
      sso_type: 'SAML2.0',
      id_vendor: '',
      login_url: `http://localhost:8080/api/auth/sso/login/${TEAM}`,
      assertion_url: `http://localhost:8080/api/auth/sso/acs/${TEAM}`,
      sp_entity_id: `http://localhost:8080/api/auth/sso/metadata/${TEAM}`,
      sp_metadata_url: `http://localhost:8080/api/auth/sso/metadata/${TEAM}`,
      access_white_list: [],
      metadata: null,
    });
    const metadata = await t.app.inject({ method: 'GET', url: `/api/auth/sso/metadata/${TEAM}` });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.body).toContain(`entityID="${sp.entityId}"`);
    expect(metadata.body).toContain(`Location="${sp.acsUrl}"`);
    // Only the team administrator reaches the SSO tab.
    await addMember(t, 'member@demo.local', 0);
    const member = await signedIn(t, 'member@demo.local', 'Member#Pass1');
    expect((await member.get('/api/sso/config')).statusCode).toBe(403);
  });

  it('refuses the SSO form rules of spec 2 §5, naming the field', async () => {
    const metadata = await idp.metadataXml();
    const cases: [Record<string, unknown>, string][] = [
      [{ metadata: [xmlFile(metadata, 'idp-metadata.txt')] }, 'metadata.0.file_name'],
      [{ metadata: [xmlFile(metadata), xmlFile(metadata)] }, 'metadata'],
      [{ metadata: [] }, 'metadata'],
      [
        {
          metadata: [
            {
              file_name: 'big.xml',
              content: Buffer.alloc(SSO_METADATA_MAX_BYTES + 1, 0x20).toString('base64'),
            },
          ],
        },
        'metadata.0.content',
      ],
      [{ metadata: [xmlFile(metadata)], access_white_list: [] }, 'access_white_list'],
      [
        { metadata: [xmlFile(metadata)], access_white_list: ['not a domain'] },
        'access_white_list.0',
      ],
      [{ metadata: [xmlFile(metadata)], id_vendor: 'v'.repeat(65) }, 'id_vendor'],
      [{ metadata: [xmlFile(metadata)], id_vendor: ' ' }, 'id_vendor'],
      [{ metadata: [xmlFile(metadata)], sso_type: 'OIDC' }, 'sso_type'],
      // Opening SSO needs metadata, and nothing is stored yet.
      [{}, 'metadata'],
      // Well-formed XML that is not an identity provider's metadata.
      [{ metadata: [xmlFile('<note>hello</note>')] }, 'metadata.0.content'],
      [{ metadata: [xmlFile('<md:EntityDescriptor')] }, 'metadata.0.content'],
    ];
    for (const [change, field] of cases) {
      const res = await openConfig(change);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json(), field).toMatchObject({ code: 'InvalidParameter', field });
    }
    // Closed, the access list may be empty; id_vendor is still required.
    const closed = await openConfig({ is_open: false, access_white_list: [], id_vendor: '' });
    expect(closed.json()).toMatchObject({ code: 'InvalidParameter', field: 'id_vendor' });
    expect((await admin.get('/api/sso/config')).json().metadata).toBeNull();
  });

  it('refuses metadata with a DTD, so no external entity is ever read (XXE)', async () => {
    const metadata = await idp.metadataXml();
    const xxe = metadata
      .replace(
        '<md:EntityDescriptor',
        '<!DOCTYPE md:EntityDescriptor [<!ENTITY leak SYSTEM "file:///etc/passwd">]><md:EntityDescriptor',
      )
      .replace('<md:NameIDFormat>', '<md:NameIDFormat>&leak;');
    for (const path of ['/api/sso/parse_metadata', '/api/sso/update_config']) {
      const res =
        path === '/api/sso/parse_metadata'
          ? await admin.post(path, { metadata: [xmlFile(xxe)] })
          : await openConfig({ metadata: [xmlFile(xxe)] });
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'metadata.0.content' });
      expect(res.body).not.toContain('root:');
    }
  });

  it("parses the provider's metadata: entity ID, SSO URL and certificate", async () => {
    const xml = await idp.metadataXml();
    const res = await admin.post('/api/sso/parse_metadata', { metadata: [xmlFile(xml)] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const certBase64 = /<ds:X509Certificate>([^<]+)</.exec(xml)?.[1] ?? '';
    const cert = new crypto.X509Certificate(Buffer.from(certBase64, 'base64'));
    expect(body).toEqual({
      entity_id: idp.entityId,
      sso_url: `${idp.base}/sso`,
      certificates: [
        {
          subject: 'CN=Portcullis Test IdP',
          issuer: 'CN=Portcullis Test IdP',
          fingerprint_sha256: cert.fingerprint256,
          not_before: Math.floor(Date.parse(cert.validFrom) / 1000),
          not_after: Math.floor(Date.parse(cert.validTo) / 1000),
        },
      ],
    });
  });

  it('saves the configuration, opens SSO for the login page and logs the team event', async () => {
    const res = await openConfig({ metadata: [xmlFile(await idp.metadataXml())] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      is_open: true,
      id_vendor: 'Test IdP',
      access_white_list: [CORP],
      metadata: { file_name: 'idp-metadata.xml', entity_id: idp.entityId },
    });
    // Saving again without a file keeps the stored metadata.
    const again = await openConfig({ access_white_list: [CORP.toUpperCase(), CORP] });
    expect(again.json()).toMatchObject({
      access_white_list: [CORP],
      metadata: { entity_id: idp.entityId },
    });

    const option = await t.client().get(`/api/auth/is_open_sso/${TEAM}`);
    expect(option.json()).toMatchObject({
      is_open_sso: true,
      sso_service: `/api/auth/sso/login/${TEAM}`,
    });
    const events = await t.ctx.db
      .selectFrom('event_log')
      .select(['event', 'account'])
      .where('event', '=', 'updateSso')
      .execute();
    expect(events.length).toBe(2);
    // The stored metadata holds no secret, but the reply never echoes the XML either.
    expect(again.body).not.toContain('X509Certificate');
  });

  it('redirects to the provider with a valid AuthnRequest and binds the browser', async () => {
    const browser = t.client();
    const location = new URL(await startLogin(browser));
    expect(`${location.origin}${location.pathname}`).toBe(`${idp.base}/sso`);
    const xml = zlib
      .inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest') ?? '', 'base64'))
      .toString('utf8');
    const request = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
    expect(request.localName).toBe('AuthnRequest');
    expect(request.getAttribute('Destination')).toBe(`${idp.base}/sso`);
    expect(request.getAttribute('AssertionConsumerServiceURL')).toBe(sp.acsUrl);
    expect(request.getAttribute('ProtocolBinding')).toBe(
      'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
    );
    expect(request.getElementsByTagName('saml:Issuer')[0]?.textContent).toBe(sp.entityId);
    const id = request.getAttribute('ID') ?? '';
    expect(id).toMatch(/^_[0-9a-f]{40}$/);
    const row = await t.ctx.db
      .selectFrom('sso_request')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.expires_at - nowSeconds()).toBeGreaterThan(500);
    expect(browser.cookies.get('pc_sso')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row.browser_hash).not.toContain(browser.cookies.get('pc_sso'));
    // The provider itself accepts the request (it checks issuer, ACS URL and destination).
    const page = await fetch(location);
    expect(page.status).toBe(200);
    expect(readForm(await page.text()).fields.pending).toBeTruthy();
  });

  it('signs a new user in as an ordinary member without a password, then reuses the account', async () => {
    const { browser, acs } = await ssoSignIn('Alice@Corp.Example', { name: 'Alice Example' });
    expect(acs.statusCode, acs.body).toBe(303);
    expect(acs.headers['cache-control']).toBe('no-store');
    const token = tokenOf(String(acs.headers.location));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const exchange = await browser.post(`/api/auth/pw_sso/${token}`);
    expect(exchange.statusCode, exchange.body).toBe(200);
    expect(exchange.json()).toEqual({
      otp_enabled: false,
      op: '',
      company_mfa: false,
      is_admin: 0,
    });
    const me = await browser.get('/api/current_account');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      account: 'alice@corp.example',
      name: 'Alice Example',
      is_admin: 0,
    });
    const alice = await accountRow('alice@corp.example');
    expect(alice).toMatchObject({ is_admin: 0, password_hash: null, status: 0, company_id: 1 });
    // Only the hash of the credential is stored.
    const stored = await t.ctx.db.selectFrom('sso_credential').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(token);
    // Nothing logs it, not even the request line of the spec's path (/auth/pw_sso/{token}).
    expect(t.logs()).not.toContain(token);
    expect(t.logs()).toContain('/auth/pw_sso/[redacted]');

    const second = await ssoSignIn('alice@corp.example');
    expect(second.acs.statusCode, second.acs.body).toBe(303);
    const again = await second.browser.post(
      `/api/auth/cf_sso/${tokenOf(String(second.acs.headers.location))}`,
    );
    expect(again.statusCode, again.body).toBe(200);
    const accounts = await t.ctx.db
      .selectFrom('account')
      .select('id')
      .where('account', '=', 'alice@corp.example')
      .execute();
    expect(accounts).toEqual([{ id: alice!.id }]);
    const logins = await t.ctx.db
      .selectFrom('login_log')
      .selectAll()
      .where('account_id', '=', alice!.id)
      .execute();
    expect(logins.filter((l) => l.success === 1).length).toBe(2);
  });

  it('exchanges a credential once, only in the browser that started, and only for 60 s', async () => {
    const { browser, acs } = await ssoSignIn('alice@corp.example');
    const token = tokenOf(String(acs.headers.location));

    // Another browser (a leaked URL, or an attacker's own sign-in pushed to a victim) cannot.
    const elsewhere = await t.client().post(`/api/auth/pw_sso/${token}`);
    expect(elsewhere.statusCode).toBe(401);
    expect(elsewhere.json().code).toBe('InvalidToken');
    // ...and that attempt spent it.
    const spent = await browser.post(`/api/auth/pw_sso/${token}`);
    expect(spent.json().code).toBe('InvalidToken');

    const fresh = await ssoSignIn('alice@corp.example');
    const freshToken = tokenOf(String(fresh.acs.headers.location));
    expect((await fresh.browser.post(`/api/auth/pw_sso/${freshToken}`)).statusCode).toBe(200);
    const reused = await fresh.browser.post(`/api/auth/pw_sso/${freshToken}`);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().code).toBe('InvalidToken');

    const late = await ssoSignIn('alice@corp.example');
    const lateToken = tokenOf(String(late.acs.headers.location));
    await t.ctx.db.updateTable('sso_credential').set({ expires_at: nowSeconds() }).execute();
    expect((await late.browser.post(`/api/auth/pw_sso/${lateToken}`)).json().code).toBe(
      'InvalidToken',
    );

    const unknown = await t.client().post(`/api/auth/pw_sso/${'A'.repeat(43)}`);
    expect(unknown.json().code).toBe('InvalidToken');
    const malformed = await t.client().post('/api/auth/pw_sso/short');
    expect(malformed.json()).toMatchObject({ code: 'InvalidParameter', field: 'token' });
  });

  it('asks a member with a bound TOTP for the code after SSO', async () => {
    await t.ctx.db
      .updateTable('account')
      .set({ otp_enabled: 1 })
      .where('account', '=', 'alice@corp.example')
      .execute();
    const { browser, acs } = await ssoSignIn('alice@corp.example');
    const res = await browser.post(`/api/auth/pw_sso/${tokenOf(String(acs.headers.location))}`);
    expect(res.json()).toMatchObject({ otp_enabled: true, is_admin: 0 });
    expect((await browser.get('/api/current_account')).json().code).toBe('NeedMfaLogin');
    await t.ctx.db
      .updateTable('account')
      .set({ otp_enabled: 0 })
      .where('account', '=', 'alice@corp.example')
      .execute();
  });

  it('refuses a tampered assertion (e-mail changed after signing)', async () => {
    const browser = t.client();
    const answer = await signInAtIdp(await startLogin(browser), 'carol@corp.example');
    const xml = Buffer.from(answer.SAMLResponse, 'base64').toString('utf8');
    expect(xml).toContain('carol@corp.example');
    const forged = xml.replaceAll('carol@corp.example', 'mallory@corp.example');
    const res = await postAcs({ SAMLResponse: Buffer.from(forged).toString('base64') });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('LoginFailed');
    expect(await accountRow('mallory@corp.example')).toBeUndefined();
    expect(await accountRow('carol@corp.example')).toBeUndefined();
    // A DTD smuggled into the response is refused before any parser sees it.
    const withDtd = xml.replace('<samlp:Response', '<!DOCTYPE x [<!ENTITY e "x">]><samlp:Response');
    const dtd = await postAcs({ SAMLResponse: Buffer.from(withDtd).toString('base64') });
    expect(dtd.json().code).toBe('LoginFailed');
  });

  it('refuses signature wrapping: an unsigned assertion beside or around the signed one', async () => {
    for (const variant of ['', 'assertion-only']) {
      const answer = await signInAtIdp(await startLogin(t.client()), 'henry@corp.example', {
        variant,
      });
      const xml = Buffer.from(answer.SAMLResponse, 'base64').toString('utf8');
      const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? '';
      expect(signed).toContain('<Signature');
      const evil = signed
        .replace(/<Signature[\s\S]*?<\/Signature>/, '')
        .replaceAll('henry@corp.example', 'mallory@corp.example')
        .replace(/ID="[^"]+"/, 'ID="_evil"');
      const beside = xml.replace(signed, evil + signed);
      const around = xml.replace(
        signed,
        evil.replace('</saml:Issuer>', `</saml:Issuer><saml:Advice>${signed}</saml:Advice>`),
      );
      for (const forged of [beside, around]) {
        const res = await postAcs({ SAMLResponse: Buffer.from(forged).toString('base64') });
        expect(res.statusCode, variant).toBe(401);
        expect(res.json().code).toBe('LoginFailed');
      }
    }
    expect(await accountRow('mallory@corp.example')).toBeUndefined();
  });

  it('refuses a replayed assertion (the same response posted twice)', async () => {
    const browser = t.client();
    const answer = await signInAtIdp(await startLogin(browser), 'dave@corp.example');
    const first = await postAcs(answer);
    expect(first.statusCode, first.body).toBe(303);
    const replay = await postAcs(answer);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('LoginFailed');
    const seen = await t.ctx.db.selectFrom('sso_assertion_seen').selectAll().execute();
    expect(seen.length).toBeGreaterThan(0);

    // Posted twice at once, both copies pass the request check before either consumes it:
    // the assertion ID, recorded atomically, lets exactly one through.
    const racing = await signInAtIdp(await startLogin(t.client()), 'dave@corp.example');
    const results = await Promise.all([postAcs(racing), postAcs(racing), postAcs(racing)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([303, 401, 401]);
  });

  it('refuses an expired assertion, one for another audience, and one signed by another key', async () => {
    for (const variant of ['expired', 'wrong-audience', 'rogue']) {
      const { acs } = await ssoSignIn(`erin-${variant}@corp.example`, { variant });
      expect(acs.statusCode, variant).toBe(401);
      expect(acs.json().code, variant).toBe('LoginFailed');
      expect(await accountRow(`erin-${variant}@corp.example`)).toBeUndefined();
    }
    const refusals = await t.ctx.db
      .selectFrom('login_log')
      .selectAll()
      .where('success', '=', 0)
      .where('reason', '=', 'LoginFailed')
      .execute();
    expect(refusals.length).toBeGreaterThanOrEqual(3);
  });

  it('accepts a response whose assertion alone is signed (a common provider setting)', async () => {
    const { browser, acs } = await ssoSignIn('frank@corp.example', { variant: 'assertion-only' });
    expect(acs.statusCode, acs.body).toBe(303);
    const res = await browser.post(`/api/auth/pw_sso/${tokenOf(String(acs.headers.location))}`);
    expect(res.statusCode).toBe(200);
  });

  it('refuses a response to no request of ours (unsolicited, or its request already used)', async () => {
    const browser = t.client();
    const answer = await signInAtIdp(await startLogin(browser), 'grace@corp.example');
    await t.ctx.db.deleteFrom('sso_request').execute();
    const res = await postAcs(answer);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('LoginFailed');
    expect(await accountRow('grace@corp.example')).toBeUndefined();
  });

  it('refuses an e-mail outside the access list and a disabled member', async () => {
    const { acs } = await ssoSignIn('bob@other.example');
    expect(acs.statusCode).toBe(403);
    expect(acs.json().code).toBe('NeedPrivilege');
    expect(await accountRow('bob@other.example')).toBeUndefined();

    await t.ctx.db
      .updateTable('account')
      .set({ status: 1 })
      .where('account', '=', 'alice@corp.example')
      .execute();
    const disabled = await ssoSignIn('alice@corp.example');
    expect(disabled.acs.json().code).toBe('AccountDisabled');
    await t.ctx.db
      .updateTable('account')
      .set({ status: 0 })
      .where('account', '=', 'alice@corp.example')
      .execute();
  });

  it('with is_account_password off, members lose password sign-in and administrators keep it', async () => {
    const member = await accountRow('member@demo.local');
    const owner = await accountRow('admin@demo.local');
    expect(await passwordSignInAllowed(t.ctx, member!)).toBe(true);
    expect((await ssoOption(t.ctx, TEAM)).is_account_password).toBe(true);

    expect((await openConfig({ is_account_password: false })).statusCode).toBe(200);
    expect(await passwordSignInAllowed(t.ctx, member!)).toBe(false);
    expect(await passwordSignInAllowed(t.ctx, owner!)).toBe(true);
    // Through the real login: the member is refused with its own code, the administrator is not.
    const refused = await t.client().login(TEAM, 'member@demo.local', 'Member#Pass1');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('PasswordLoginDisabled');
    expect((await t.client().login(TEAM, 'admin@demo.local', 'Admin#Pass2026')).statusCode).toBe(
      200,
    );
    expect(await ssoOption(t.ctx, TEAM)).toEqual({
      is_open_sso: true,
      mfa: false,
      is_account_password: false,
      sso_service: `/api/auth/sso/login/${TEAM}`,
    });
    expect(await ssoOption(t.ctx, 'noteam')).toEqual({
      is_open_sso: false,
      mfa: false,
      is_account_password: true,
      sso_service: '',
    });
    expect((await openConfig({ is_account_password: true })).statusCode).toBe(200);
  });

  it('refuses every step once the team closes SSO', async () => {
    const browser = t.client();
    const answer = await signInAtIdp(await startLogin(browser), 'alice@corp.example');
    const pending = await ssoSignIn('alice@corp.example');
    expect(pending.acs.statusCode).toBe(303);

    const closed = await openConfig({ is_open: false });
    expect(closed.json()).toMatchObject({ is_open: false, metadata: { entity_id: idp.entityId } });
    const option = await t.client().get(`/api/auth/is_open_sso/${TEAM}`);
    expect(option.json()).toMatchObject({ is_open_sso: false, sso_service: '' });

    const login = await t.client().get(`/api/auth/sso/login/${TEAM}`);
    expect(login.statusCode).toBe(400);
    expect(login.json()).toMatchObject({ code: 'SsoNotOpen' });
    const acs = await postAcs(answer);
    expect(acs.json()).toMatchObject({ code: 'SsoNotOpen' });
    const exchange = await pending.browser.post(
      `/api/auth/pw_sso/${tokenOf(String(pending.acs.headers.location))}`,
    );
    expect(exchange.json()).toMatchObject({ code: 'SsoNotOpen' });
    // An unknown team answers exactly like a team without SSO.
    const unknown = await t.client().get('/api/auth/sso/login/noteam');
    expect(unknown.json()).toMatchObject({ code: 'SsoNotOpen' });
  });
});
