/**
 * Reads an identity provider's SAML 2.0 metadata: its entity ID, its single sign-on URL for the
 * HTTP-Redirect binding and its signing certificates.
 *
 * The file comes from an administrator's upload, so it is parsed as hostile: a document with a
 * DTD (`<!DOCTYPE`, `<!ENTITY`) is refused before any parser sees it, which rules out external
 * entities (XXE) and entity expansion; @xmldom/xmldom never fetches anything, and every parser
 * error or warning refuses the file. The metadata's own signature is not checked: the upload
 * itself is the administrator's statement of trust, over an authenticated session.
 */
import crypto from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import {
  base64DecodedLength,
  SSO_METADATA_MAX_BYTES,
  type SsoCertificate,
  type SsoMetadataFile,
  type SsoMetadataInfo,
} from '@portcullis/contract';
import { AppError, invalidParameter } from '../../lib/app-error';

const MD_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS_NS = 'http://www.w3.org/2000/09/xmldsig#';
const SAML_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What a metadata file holds, plus the PEM certificates the assertion checks use. */
export interface ParsedMetadata extends SsoMetadataInfo {
  certificatesPem: string[];
}

/** Any DTD at all: no metadata or SAML message needs one, and entities are the XXE vector. */
export function hasDtd(xml: string): boolean {
  return /<!DOCTYPE|<!ENTITY/i.test(xml);
}

/**
 * Parses XML that contains no DTD, refusing on any parser complaint. Throws a plain Error
 * (callers map it to their own failure).
 */
export function parseUntrustedXml(xml: string): Document {
  if (hasDtd(xml)) throw new Error('XML with a DTD is refused');
  const fail = (msg: unknown) => {
    throw new Error(`malformed XML: ${String(msg).slice(0, 200)}`);
  };
  const doc = new DOMParser({
    locator: {},
    errorHandler: { warning: fail, error: fail, fatalError: fail },
  }).parseFromString(xml, 'text/xml');
  if (!doc?.documentElement || doc.doctype) throw new Error('not an XML document');
  return doc;
}

/** Decodes an uploaded metadata file (base64) to text, within the size limit. */
export function decodeMetadataFile(file: SsoMetadataFile, field = 'metadata.0.content'): string {
  if (base64DecodedLength(file.content) > SSO_METADATA_MAX_BYTES) throw invalidParameter(field);
  const base64 = file.content.replace(/^data:[^;,]*;base64,/, '').replace(/\s+/g, '');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0 || bytes.length > SSO_METADATA_MAX_BYTES) throw invalidParameter(field);
  // A UTF-8 byte-order mark is allowed; anything that is not UTF-8 text is not metadata.
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\uFFFD')) throw invalidParameter(field);
  return text;
}

function children(parent: Element, ns: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) {
      const el = n as Element;
      if (el.namespaceURI === ns && el.localName === localName) out.push(el);
    }
  }
  return out;
}

function httpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** OpenSSL's colon-separated fingerprint, the form administrators compare with. */
function certificateInfo(der: Buffer): { info: SsoCertificate; pem: string } {
  const cert = new crypto.X509Certificate(der);
  const pem = cert.toString();
  return {
    pem,
    info: {
      subject: cert.subject.replace(/\n/g, ', '),
      issuer: cert.issuer.replace(/\n/g, ', '),
      fingerprint_sha256: cert.fingerprint256,
      not_before: Math.floor(new Date(cert.validFrom).getTime() / 1000),
      not_after: Math.floor(new Date(cert.validTo).getTime() / 1000),
    },
  };
}

/**
 * Reads one identity provider's metadata. Refuses (InvalidParameter on `field`) a file that is
 * not well-formed XML, has a DTD, describes no or several identity providers, offers no
 * HTTP-Redirect single sign-on service or carries no usable signing certificate.
 */
export function parseIdpMetadata(xml: string, field = 'metadata'): ParsedMetadata {
  let doc: Document;
  try {
    doc = parseUntrustedXml(xml);
  } catch (error) {
    throw new AppError('InvalidParameter', { field }, { field, cause: error });
  }
  const root = doc.documentElement;
  let entities: Element[];
  if (root.namespaceURI === MD_NS && root.localName === 'EntityDescriptor') entities = [root];
  else if (root.namespaceURI === MD_NS && root.localName === 'EntitiesDescriptor')
    entities = children(root, MD_NS, 'EntityDescriptor');
  else throw invalidParameter(field);

  const idps = entities.flatMap((entity) =>
    children(entity, MD_NS, 'IDPSSODescriptor')
      .filter((d) => (d.getAttribute('protocolSupportEnumeration') ?? '').includes(SAML_PROTOCOL))
      .map((descriptor) => ({ entity, descriptor })),
  );
  if (idps.length !== 1) throw invalidParameter(field);
  const { entity, descriptor } = idps[0]!;

  const entityId = (entity.getAttribute('entityID') ?? '').trim();
  if (!entityId || entityId.length > 1024) throw invalidParameter(field);

  const sso = children(descriptor, MD_NS, 'SingleSignOnService').find(
    (s) => s.getAttribute('Binding') === REDIRECT_BINDING,
  );
  const ssoUrl = (sso?.getAttribute('Location') ?? '').trim();
  if (!httpUrl(ssoUrl) || ssoUrl.length > 2048) throw invalidParameter(field);

  const certificates: SsoCertificate[] = [];
  const certificatesPem: string[] = [];
  for (const key of children(descriptor, MD_NS, 'KeyDescriptor')) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const info of children(key, DS_NS, 'KeyInfo'))
      for (const data of children(info, DS_NS, 'X509Data'))
        for (const certEl of children(data, DS_NS, 'X509Certificate')) {
          const base64 = (certEl.textContent ?? '').replace(/\s+/g, '');
          try {
            const { info: parsed, pem } = certificateInfo(Buffer.from(base64, 'base64'));
            if (!certificatesPem.includes(pem)) {
              certificates.push(parsed);
              certificatesPem.push(pem);
            }
          } catch (error) {
            throw new AppError('InvalidParameter', { field }, { field, cause: error });
          }
        }
  }
  if (certificates.length === 0) throw invalidParameter(field);
  return { entity_id: entityId, sso_url: ssoUrl, certificates, certificatesPem };
}

/** The public part of stored certificates, for the SSO tab. */
export function describeCertificates(pems: string[]): SsoCertificate[] {
  return pems.map((pem) => certificateInfo(new crypto.X509Certificate(pem).raw).info);
}
