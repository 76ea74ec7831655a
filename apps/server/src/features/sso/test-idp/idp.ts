/**
 * A real SAML 2.0 identity provider for tests, run as its own process (`node --import tsx`).
 * It makes its own key pair and self-signed certificate with openssl at start, serves its
 * metadata, reads AuthnRequests over the HTTP-Redirect binding, shows a login form, and answers
 * with a Response whose assertion (and the response itself) it signs with xml-crypto, delivered
 * the way real providers do: an HTML form that posts SAMLResponse to the service provider's ACS.
 *
 * It knows one service provider (IDP_SP_ENTITY_ID, IDP_SP_ACS_URL) and refuses requests from any
 * other; every user's password is IDP_PASSWORD. For the refusal tests the login form takes a
 * `variant`: `expired` (validity window in the past), `rogue` (signed by a second key that is
 * not in the metadata), `assertion-only` (the response envelope unsigned), `wrong-audience`.
 *
 * Test tooling only: it trusts its caller and keeps its keys in memory.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

interface KeyPair {
  key: string;
  cert: string;
}

const SP_ENTITY_ID = process.env.IDP_SP_ENTITY_ID ?? '';
const SP_ACS_URL = process.env.IDP_SP_ACS_URL ?? '';
const PASSWORD = process.env.IDP_PASSWORD ?? '';

function makeKeyPair(commonName: string): KeyPair {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-idp-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '2',
        '-subj',
        `/CN=${commonName}`,
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const trusted = makeKeyPair('Portcullis Test IdP');
const rogue = makeKeyPair('Portcullis Test IdP');

function certBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

function esc(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function newId(): string {
  return `_${crypto.randomBytes(20).toString('hex')}`;
}

let base = '';
const entityId = () => `${base}/metadata`;

function metadata(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(entityId())}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(trusted.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(base)}/sso"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${esc(base)}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
}

interface Pending {
  requestId: string;
  acsUrl: string;
  relayState: string;
}
const pending = new Map<string, Pending>();

/** Reads and checks an AuthnRequest from the HTTP-Redirect binding (deflated, base64). */
function readAuthnRequest(samlRequest: string): { id: string; acsUrl: string } {
  const xml = zlib.inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new Error('DTD in request');
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const req = doc.documentElement;
  if (req.localName !== 'AuthnRequest') throw new Error('not an AuthnRequest');
  const issuer = req.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0];
  if (issuer?.textContent?.trim() !== SP_ENTITY_ID) throw new Error('unknown service provider');
  const acsUrl = req.getAttribute('AssertionConsumerServiceURL') || SP_ACS_URL;
  if (acsUrl !== SP_ACS_URL) throw new Error('ACS URL not registered for this provider');
  if (req.getAttribute('Destination') !== `${base}/sso`) throw new Error('wrong destination');
  const issued = Date.parse(req.getAttribute('IssueInstant') ?? '');
  if (!(Math.abs(Date.now() - issued) < 120_000)) throw new Error('stale request');
  const id = req.getAttribute('ID') ?? '';
  if (!id) throw new Error('request without ID');
  return { id, acsUrl };
}

function sign(xml: string, keys: KeyPair, element: 'Assertion' | 'Response'): string {
  const sig = new SignedXml({
    privateKey: keys.key,
    publicCert: keys.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const target = `//*[local-name(.)='${element}']`;
  sig.addReference({
    xpath: target,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
  });
  // The schema puts the signature right after the element's own Issuer.
  sig.computeSignature(xml, {
    location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

function samlResponse(p: Pending, email: string, name: string, variant: string): string {
  const now = Math.floor(Date.now() / 1000);
  const issued = variant === 'expired' ? now - 1200 : now;
  const notOnOrAfter = variant === 'expired' ? now - 600 : now + 300;
  const audience = variant === 'wrong-audience' ? 'https://elsewhere.example/sp' : SP_ENTITY_ID;
  const responseId = newId();
  const assertionId = newId();
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(issued)}">` +
    `<saml:Issuer>${esc(entityId())}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${esc(p.requestId)}" NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${esc(p.acsUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(issued - 30)}" NotOnOrAfter="${iso(notOnOrAfter)}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(issued)}" SessionIndex="${newId()}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>` +
    `<saml:Attribute Name="email"><saml:AttributeValue>${esc(email)}</saml:AttributeValue></saml:Attribute>` +
    `<saml:Attribute Name="displayName"><saml:AttributeValue>${esc(name)}</saml:AttributeValue></saml:Attribute>` +
    `</saml:AttributeStatement></saml:Assertion>`;
  const keys = variant === 'rogue' ? rogue : trusted;
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${responseId}" Version="2.0" IssueInstant="${iso(issued)}" Destination="${esc(p.acsUrl)}" InResponseTo="${esc(p.requestId)}">` +
    `<saml:Issuer>${esc(entityId())}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    sign(assertion, keys, 'Assertion') +
    `</samlp:Response>`;
  const xml = variant === 'assertion-only' ? response : sign(response, keys, 'Response');
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${xml}`, 'utf8').toString('base64');
}

function page(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Test IdP</title></head><body>${body}</body></html>`;
}

function loginForm(pendingId: string, error = ''): string {
  return page(
    `<h1>Test IdP sign-in</h1>${error ? `<p role="alert">${esc(error)}</p>` : ''}` +
      `<form method="post" action="${esc(base)}/login">` +
      `<input type="hidden" name="pending" value="${esc(pendingId)}">` +
      `<label>E-mail <input name="email" type="email"></label>` +
      `<label>Display name <input name="name"></label>` +
      `<label>Password <input name="password" type="password"></label>` +
      `<input type="hidden" name="variant" value="">` +
      `<button type="submit">Sign in</button></form>`,
  );
}

/** What a real provider sends back: a form the browser posts to the ACS on load. */
function postBackForm(acsUrl: string, response: string, relayState: string): string {
  return page(
    `<form id="saml" method="post" action="${esc(acsUrl)}">` +
      `<input type="hidden" name="SAMLResponse" value="${esc(response)}">` +
      (relayState ? `<input type="hidden" name="RelayState" value="${esc(relayState)}">` : '') +
      `<button type="submit">Continue</button></form>` +
      `<script src="${esc(base)}/autopost.js"></script>`,
  );
}

async function readBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', base);
  const send = (status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  (async () => {
    if (req.method === 'GET' && url.pathname === '/metadata') {
      return send(200, 'application/samlmetadata+xml', metadata());
    }
    if (req.method === 'GET' && url.pathname === '/autopost.js') {
      return send(200, 'text/javascript', "document.getElementById('saml').submit();");
    }
    if (req.method === 'GET' && url.pathname === '/sso') {
      let request;
      try {
        request = readAuthnRequest(url.searchParams.get('SAMLRequest') ?? '');
      } catch (error) {
        return send(400, 'text/plain', `Bad AuthnRequest: ${(error as Error).message}`);
      }
      const id = newId();
      pending.set(id, {
        requestId: request.id,
        acsUrl: request.acsUrl,
        relayState: url.searchParams.get('RelayState') ?? '',
      });
      return send(200, 'text/html; charset=utf-8', loginForm(id));
    }
    if (req.method === 'POST' && url.pathname === '/login') {
      const form = await readBody(req);
      const pendingId = form.get('pending') ?? '';
      const p = pending.get(pendingId);
      if (!p) return send(400, 'text/plain', 'No such sign-in');
      const email = (form.get('email') ?? '').trim();
      if (!email || form.get('password') !== PASSWORD) {
        return send(401, 'text/html; charset=utf-8', loginForm(pendingId, 'Wrong password'));
      }
      pending.delete(pendingId);
      const name = form.get('name') || email.split('@')[0] || email;
      const response = samlResponse(p, email, name, form.get('variant') ?? '');
      return send(200, 'text/html; charset=utf-8', postBackForm(p.acsUrl, response, p.relayState));
    }
    return send(404, 'text/plain', 'Not found');
  })().catch((error: unknown) => send(500, 'text/plain', String(error)));
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  base = `http://127.0.0.1:${port}`;
  process.send?.({ type: 'ready', base, entityId: entityId() });
});

process.on('disconnect', () => {
  server.close();
  process.exit(0);
});
