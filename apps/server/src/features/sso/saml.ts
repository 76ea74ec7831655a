/**
 * Our SAML 2.0 service provider, on @node-saml/node-saml: AuthnRequests over the HTTP-Redirect
 * binding and signed responses over HTTP-POST.
 *
 * node-saml checks the XML signature against the certificates of the stored metadata only
 * (never a key carried in the message), the audience, the Conditions time window and that
 * InResponseTo names a request we made. On top of that, this module checks on the *signed*
 * assertion what node-saml leaves to its caller: the issuer is the configured provider, a bearer
 * subject confirmation names our ACS URL as Recipient, the same request and a future
 * NotOnOrAfter; the response's Destination, when present, is our ACS URL and its status is
 * Success. The caller then consumes the request ID and the assertion ID, once each.
 *
 * Limits: IdP-initiated sign-in (a response to no request of ours) is refused by design; our
 * AuthnRequests are not signed (no provider needs it for this flow, and it would put a private
 * key at rest); encrypted assertions are not accepted.
 */
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import type { AppContext } from '../../context';
import type { CompanyRow } from '../../db/schema';
import { nowSeconds } from '../../lib/time';
import { idpCertificates, spUrls, type SsoConfigRow } from './config';
import { hasDtd, parseUntrustedXml } from './metadata';

/** How long the browser may stay at the identity provider's login page. */
export const SSO_REQUEST_TTL_SECONDS = 600;
/** Clock difference tolerated between us and the identity provider. */
export const SSO_CLOCK_SKEW_SECONDS = 60;
/** An assertion issued longer ago than this is refused whatever its own expiry says. */
export const SSO_ASSERTION_MAX_AGE_SECONDS = 300;

const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'displayname',
  'name',
  'cn',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'urn:oid:2.5.4.3',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
];

/** A refusal of the response; `reason` is for the log (never contains the message itself). */
export class SamlRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SamlRefused';
  }
}

/** Who the provider vouches for, read from the signed assertion only. */
export interface VerifiedAssertion {
  assertionId: string;
  inResponseTo: string;
  /** NameID, or the first e-mail attribute when the NameID is not an e-mail. */
  email: string;
  displayName: string;
  /** Until when the assertion could be accepted: how long its ID stays in the replay cache. */
  expiresAt: number;
}

/**
 * Outstanding request IDs live in the database (any replica may receive the response), bound
 * to the team and to the browser that asked. `removeAsync` does nothing: the caller consumes
 * the ID itself, atomically, after every other check passed.
 */
function requestCache(ctx: AppContext, companyId: number, browserHash: string): CacheProvider {
  return {
    async saveAsync(key, value) {
      const now = nowSeconds();
      await ctx.db
        .insertInto('sso_request')
        .values({
          id: key,
          company_id: companyId,
          browser_hash: browserHash,
          created_at: now,
          expires_at: now + SSO_REQUEST_TTL_SECONDS,
        })
        .execute();
      return { value, createdAt: now * 1000 };
    },
    async getAsync(key) {
      const row = await ctx.db
        .selectFrom('sso_request')
        .select('created_at')
        .where('id', '=', key)
        .where('company_id', '=', companyId)
        .where('expires_at', '>', nowSeconds())
        .executeTakeFirst();
      return row ? new Date(row.created_at * 1000).toISOString() : null;
    },
    async removeAsync() {
      return null;
    },
  };
}

function serviceProvider(
  ctx: AppContext,
  company: CompanyRow,
  config: SsoConfigRow,
  browserHash: string,
): SAML {
  const urls = spUrls(ctx, company);
  return new SAML({
    entryPoint: config.idp_sso_url,
    issuer: urls.entityId,
    audience: urls.entityId,
    callbackUrl: urls.acsUrl,
    idpCert: idpCertificates(config),
    idpIssuer: config.idp_entity_id,
    wantAssertionsSigned: true,
    // Many providers sign the assertion only; the assertion is what we trust.
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SSO_REQUEST_TTL_SECONDS * 1000,
    cacheProvider: requestCache(ctx, company.id, browserHash),
    acceptedClockSkewMs: SSO_CLOCK_SKEW_SECONDS * 1000,
    maxAssertionAgeMs: SSO_ASSERTION_MAX_AGE_SECONDS * 1000,
    // Providers differ in how they authenticate (password, MFA, passkey): ask for none in particular.
    disableRequestedAuthnContext: true,
  });
}

/** The provider's URL with a deflated AuthnRequest; its ID is recorded for InResponseTo. */
export async function authorizeUrl(
  ctx: AppContext,
  company: CompanyRow,
  config: SsoConfigRow,
  browserHash: string,
): Promise<string> {
  return serviceProvider(ctx, company, config, browserHash).getAuthorizeUrlAsync('', undefined, {});
}

function directChildren(parent: Element, ns: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) {
      const el = n as Element;
      if (el.namespaceURI === ns && el.localName === localName) out.push(el);
    }
  }
  return out;
}

function only(parent: Element, ns: string, localName: string): Element {
  const found = directChildren(parent, ns, localName);
  if (found.length !== 1) throw new SamlRefused(`expected one ${localName}`);
  return found[0]!;
}

/** xmldom answers '' for an absent attribute; absent and empty differ here. */
function attr(el: Element, name: string): string | null {
  return el.hasAttribute(name) ? el.getAttribute(name) : null;
}

function instant(value: string | null, what: string): number {
  const ms = value ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw new SamlRefused(`${what} missing or unreadable`);
  return Math.floor(ms / 1000);
}

function attributeValues(assertion: Element, names: string[]): string[] {
  const out: string[] = [];
  for (const statement of directChildren(assertion, ASSERTION_NS, 'AttributeStatement'))
    for (const attribute of directChildren(statement, ASSERTION_NS, 'Attribute')) {
      const name = (attribute.getAttribute('Name') ?? '').toLowerCase();
      if (!names.includes(name)) continue;
      for (const value of directChildren(attribute, ASSERTION_NS, 'AttributeValue'))
        out.push((value.textContent ?? '').trim());
    }
  return out.filter(Boolean);
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

/** The checks on the signed assertion node-saml does not make; see the module comment. */
function checkSignedAssertion(
  assertionXml: string,
  expected: { issuer: string; acsUrl: string; inResponseTo: string },
  now: number,
): VerifiedAssertion {
  const assertion = parseUntrustedXml(assertionXml).documentElement;
  if (assertion.namespaceURI !== ASSERTION_NS || assertion.localName !== 'Assertion')
    throw new SamlRefused('signed node is not an assertion');
  const assertionId = attr(assertion, 'ID') ?? '';
  if (!assertionId || assertionId.length > 256) throw new SamlRefused('assertion ID');
  if ((only(assertion, ASSERTION_NS, 'Issuer').textContent ?? '').trim() !== expected.issuer)
    throw new SamlRefused('assertion issuer is not the configured provider');

  const subject = only(assertion, ASSERTION_NS, 'Subject');
  let expiresAt: number | null = null;
  for (const confirmation of directChildren(subject, ASSERTION_NS, 'SubjectConfirmation')) {
    if (attr(confirmation, 'Method') !== BEARER) continue;
    for (const data of directChildren(confirmation, ASSERTION_NS, 'SubjectConfirmationData')) {
      const notOnOrAfter = instant(attr(data, 'NotOnOrAfter'), 'NotOnOrAfter');
      const notBefore = attr(data, 'NotBefore');
      if (
        attr(data, 'Recipient') === expected.acsUrl &&
        attr(data, 'InResponseTo') === expected.inResponseTo &&
        now - SSO_CLOCK_SKEW_SECONDS < notOnOrAfter &&
        (notBefore === null || instant(notBefore, 'NotBefore') <= now + SSO_CLOCK_SKEW_SECONDS)
      ) {
        expiresAt = Math.max(expiresAt ?? 0, notOnOrAfter + SSO_CLOCK_SKEW_SECONDS);
      }
    }
  }
  if (expiresAt === null) throw new SamlRefused('no valid bearer subject confirmation');

  const nameId = (only(subject, ASSERTION_NS, 'NameID').textContent ?? '').trim().toLowerCase();
  const email = EMAIL.test(nameId)
    ? nameId
    : (attributeValues(assertion, EMAIL_ATTRIBUTES)
        .map((v) => v.toLowerCase())
        .find((v) => EMAIL.test(v)) ?? '');
  if (!email) throw new SamlRefused('no e-mail in the assertion');
  const displayName = attributeValues(assertion, NAME_ATTRIBUTES)[0] ?? '';
  return { assertionId, inResponseTo: expected.inResponseTo, email, displayName, expiresAt };
}

/** The unsigned envelope: status, and Destination when the provider sets it. */
function checkResponseEnvelope(xml: string, acsUrl: string): void {
  const response = parseUntrustedXml(xml).documentElement;
  if (response.namespaceURI !== PROTOCOL_NS || response.localName !== 'Response')
    throw new SamlRefused('not a SAML response');
  const destination = attr(response, 'Destination');
  if (destination !== null && destination !== acsUrl)
    throw new SamlRefused('response destination is not our ACS URL');
  const status = only(only(response, PROTOCOL_NS, 'Status'), PROTOCOL_NS, 'StatusCode');
  if (attr(status, 'Value') !== SUCCESS) throw new SamlRefused('response status');
}

/**
 * Validates a SAMLResponse posted to the ACS. Throws {@link SamlRefused} for anything short of
 * a valid, signed, addressed-to-us answer to one of our requests.
 */
export async function verifyResponse(
  ctx: AppContext,
  company: CompanyRow,
  config: SsoConfigRow,
  samlResponse: string,
): Promise<VerifiedAssertion> {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  if (hasDtd(xml)) throw new SamlRefused('DTD in the response');
  try {
    checkResponseEnvelope(xml, spUrls(ctx, company).acsUrl);
  } catch (error) {
    throw error instanceof SamlRefused ? error : new SamlRefused('unreadable response');
  }
  let assertionXml: string;
  let inResponseTo: string;
  try {
    // The browser binding is checked at the credential exchange; any value will do here.
    const { profile } = await serviceProvider(ctx, company, config, '').validatePostResponseAsync({
      SAMLResponse: samlResponse,
    });
    if (!profile) throw new SamlRefused('no assertion');
    assertionXml = profile.getAssertionXml?.() ?? '';
    inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : '';
  } catch (error) {
    if (error instanceof SamlRefused) throw error;
    throw new SamlRefused(error instanceof Error ? error.message.slice(0, 200) : 'invalid');
  }
  if (!assertionXml || !inResponseTo) throw new SamlRefused('no signed assertion');
  try {
    return checkSignedAssertion(
      assertionXml,
      { issuer: config.idp_entity_id, acsUrl: spUrls(ctx, company).acsUrl, inResponseTo },
      nowSeconds(),
    );
  } catch (error) {
    throw error instanceof SamlRefused ? error : new SamlRefused('unreadable assertion');
  }
}

/**
 * Our service-provider metadata, for providers that import it. It depends only on the team ID,
 * so it is served for any well-formed ID: whether a team exists is not revealed here.
 */
export function spMetadataXml(ctx: AppContext, domain: string): string {
  const urls = spUrls(ctx, { domain_key: domain.trim().toLowerCase() });
  // Built by hand: node-saml's generator needs a full SAML configuration, which a team without
  // SSO does not have, and every value here is a URL we built ourselves.
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${esc(urls.entityId)}">`,
    `  <SPSSODescriptor protocolSupportEnumeration="${PROTOCOL_NS}" AuthnRequestsSigned="false" WantAssertionsSigned="true">`,
    '    <NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</NameIDFormat>',
    `    <AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${esc(urls.acsUrl)}" index="1"/>`,
    '  </SPSSODescriptor>',
    '</EntityDescriptor>',
    '',
  ].join('\n');
}
