/**
 * Certificates for TLS tests, made with the `openssl` tool in a temporary folder: a CA, leaf
 * certificates it signs for the names asked, and a second CA that signs nothing (a resource
 * naming it must refuse every leaf). EC keys: made in milliseconds, unlike RSA.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCert {
  key: string;
  cert: string;
}

export interface TestPki {
  /** The CA's certificate (PEM), what a resource's `tls.ca` would hold. */
  ca: string;
  /** A CA that signed none of the leaves. */
  otherCa: string;
  /** A certificate signed by `ca` for `san` (`IP:127.0.0.1`, `DNS:db.example`). */
  leaf(san: string): TestCert;
  /** A self-signed certificate for `san`, signed by no CA. */
  selfSigned(san: string): TestCert;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'];
const CA_EXTENSIONS = [
  '-addext',
  'basicConstraints=critical,CA:TRUE',
  '-addext',
  'keyUsage=critical,keyCertSign',
];

/** `openssl req -x509` with `args`, signed by `signer` when given; in a folder removed after. */
function req(args: string[], signer?: TestCert): TestCert {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-test-pki-'));
  try {
    const file = (name: string): string => path.join(dir, name);
    const signed: string[] = [];
    if (signer) {
      fs.writeFileSync(file('ca.key'), signer.key);
      fs.writeFileSync(file('ca.pem'), signer.cert);
      signed.push('-CA', file('ca.pem'), '-CAkey', file('ca.key'));
    }
    const out = ['-keyout', file('key.pem'), '-out', file('cert.pem')];
    execFileSync('openssl', ['req', '-x509', ...EC, ...signed, ...args, ...out], { stdio: 'pipe' });
    return {
      key: fs.readFileSync(file('key.pem'), 'utf8'),
      cert: fs.readFileSync(file('cert.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const leafArgs = (san: string): string[] => [
  '-subj',
  '/CN=database',
  '-addext',
  `subjectAltName=${san}`,
  '-addext',
  'basicConstraints=CA:FALSE',
];

export function makeTestPki(): TestPki {
  const ca = req(['-subj', '/CN=Portcullis Test CA', ...CA_EXTENSIONS]);
  const otherCa = req(['-subj', '/CN=Another Test CA', ...CA_EXTENSIONS]);
  return {
    ca: ca.cert,
    otherCa: otherCa.cert,
    leaf: (san) => req(leafArgs(san), ca),
    selfSigned: (san) => req(leafArgs(san)),
  };
}
