/**
 * Single sign-on (SAML 2.0): the team's SSO tab and the sign-in exchange (spec 1 §2.2,
 * spec 2 §2 SSO tab, §3 SSO config, §5 SSO rules, §7 SSO calls).
 *
 * The flow is SP-initiated only: the login page's SSO button opens `/auth/sso/login/:domain`,
 * which redirects to the identity provider with an AuthnRequest; the provider posts its signed
 * response to `/auth/sso/acs/:domain`, which redirects the browser to `/login?sso_token=…`; the
 * console exchanges that single-use credential with `POST /auth/pw_sso/:token` for a session
 * and continues the normal login flow from the {@link LoginReplySchema} reply.
 */
import { z } from 'zod';
import { defineRoute, PUBLIC, roles } from './http';
import { DomainSchema, LoginReplySchema } from './auth';
import { SSO_METADATA_MAX_BYTES } from './constants';

const TEAM_ADMIN = roles([1]);

/** The only protocol offered (spec 2 §3: sso_type, default SAML2.0). */
export const SSO_TYPES = ['SAML2.0'] as const;
export type SsoType = (typeof SSO_TYPES)[number];

/** Spec 2 §5: id_vendor required, at most 64 characters. */
export const SSO_ID_VENDOR_MAX = 64;
/** Spec 2 §5: metadata is xml only, one file. */
export const SSO_METADATA_EXTENSIONS = ['xml'] as const;
export const SSO_METADATA_FILE_NAME_MAX = 255;
/** E-mail domains that may sign in through SSO: at most this many, each a DNS name. */
export const SSO_ACCESS_DOMAINS_MAX = 100;
export const SSO_ACCESS_DOMAIN_MAX = 253;
/** A SAMLResponse form field larger than this (base64 text) is refused unread. */
export const SSO_RESPONSE_MAX_CHARS = 1_000_000;
/** The single-use credential of `/login?sso_token=`: 32 random bytes, base64url. */
export const SSO_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const SSO_TOKEN_TTL_SECONDS = 60;

/** An e-mail domain such as `example.com` (lower-cased; no wildcard, no `@`). */
export const SSO_ACCESS_DOMAIN_PATTERN =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Bytes a base64 text decodes to (padding and a `data:` prefix allowed). */
export function base64DecodedLength(content: string): number {
  const base64 = content.replace(/^data:[^;,]*;base64,/, '').replace(/\s+/g, '');
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** The metadata upload: xml only, at most 5 MB (spec 2 §5). */
export const SsoMetadataFileSchema = z.object({
  file_name: z
    .string()
    .trim()
    .min(1)
    .max(SSO_METADATA_FILE_NAME_MAX)
    .refine((name) => /\.xml$/i.test(name), { message: 'xml only' }),
  /** The file's bytes, base64 (a `data:` URL prefix is accepted). */
  content: z
    .string()
    .min(1)
    .refine((c) => base64DecodedLength(c) <= SSO_METADATA_MAX_BYTES, {
      message: 'at most 5 MB',
    })
    .refine((c) => /^(data:[^;,]*;base64,)?[A-Za-z0-9+/\s]*={0,2}\s*$/.test(c), {
      message: 'base64',
    }),
});
export type SsoMetadataFile = z.infer<typeof SsoMetadataFileSchema>;

export const SsoAccessDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(SSO_ACCESS_DOMAIN_MAX)
  .regex(SSO_ACCESS_DOMAIN_PATTERN);

export const SsoCertificateSchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  /** SHA-256 of the DER certificate, colon-separated hex, as `openssl x509 -fingerprint`. */
  fingerprint_sha256: z.string(),
  not_before: z.number().int(),
  not_after: z.number().int(),
});
export type SsoCertificate = z.infer<typeof SsoCertificateSchema>;

/** What the server read from an identity provider's metadata. */
export const SsoMetadataInfoSchema = z.object({
  entity_id: z.string(),
  /** The provider's single sign-on URL for the HTTP-Redirect binding. */
  sso_url: z.string(),
  /** The provider's signing certificates (more than one during a key rollover). */
  certificates: z.array(SsoCertificateSchema),
});
export type SsoMetadataInfo = z.infer<typeof SsoMetadataInfoSchema>;

export const SsoConfigReplySchema = z.object({
  is_open: z.boolean(),
  /** Members may still sign in with their Portcullis password while SSO is open. */
  is_account_password: z.boolean(),
  sso_type: z.enum(SSO_TYPES),
  id_vendor: z.string(),
  /** Where a browser starts an SSO sign-in for this team (the login page's SSO button). */
  login_url: z.string(),
  /** Our assertion consumer service URL for this team: give it to the identity provider. */
  assertion_url: z.string(),
  /** Our entity ID (the audience the provider must name): give it to the identity provider. */
  sp_entity_id: z.string(),
  /** Our service-provider metadata, for providers that import it. */
  sp_metadata_url: z.string(),
  /** E-mail domains allowed to sign in through SSO. */
  access_white_list: z.array(z.string()),
  metadata: SsoMetadataInfoSchema.extend({ file_name: z.string() }).nullable(),
});
export type SsoConfigReply = z.infer<typeof SsoConfigReplySchema>;

/**
 * The SSO tab's form. The metadata list holds exactly one file when given; when omitted, the
 * stored metadata stays. Opening SSO needs metadata (given now or stored) and at least one
 * access domain (spec 2 §5).
 */
export const SsoUpdateBodySchema = z
  .object({
    is_open: z.boolean(),
    is_account_password: z.boolean().default(true),
    sso_type: z.enum(SSO_TYPES),
    id_vendor: z.string().trim().min(1).max(SSO_ID_VENDOR_MAX),
    access_white_list: z.array(SsoAccessDomainSchema).max(SSO_ACCESS_DOMAINS_MAX).default([]),
    metadata: z.array(SsoMetadataFileSchema).length(1).optional(),
  })
  .superRefine((body, issue) => {
    if (body.is_open && body.access_white_list.length === 0) {
      issue.addIssue({
        code: 'custom',
        path: ['access_white_list'],
        message: 'required when SSO is open',
      });
    }
  });
export type SsoUpdateBody = z.infer<typeof SsoUpdateBodySchema>;

export const SsoParseMetadataBodySchema = z.object({
  metadata: z.array(SsoMetadataFileSchema).length(1),
});

export const SsoDomainParamsSchema = z.object({ domain: DomainSchema });

/** The browser's form post from the identity provider (HTTP-POST binding). */
export const SsoAcsBodySchema = z.object({
  SAMLResponse: z.string().min(1).max(SSO_RESPONSE_MAX_CHARS),
  RelayState: z.string().max(1024).optional(),
});

export const SsoTokenParamsSchema = z.object({ token: z.string().regex(SSO_TOKEN_PATTERN) });

export const ssoRoutes = {
  config: defineRoute({
    method: 'GET',
    path: '/sso/config',
    summary: "The team's single sign-on configuration",
    access: TEAM_ADMIN,
    reply: SsoConfigReplySchema,
  }),
  updateConfig: defineRoute({
    method: 'PATCH',
    path: '/sso/update_config',
    summary: "Save the team's single sign-on configuration and identity-provider metadata",
    access: TEAM_ADMIN,
    body: SsoUpdateBodySchema,
    reply: SsoConfigReplySchema,
  }),
  parseMetadata: defineRoute({
    method: 'POST',
    path: '/sso/parse_metadata',
    summary: "Read an identity provider's metadata file (entity, SSO URL, certificates)",
    access: TEAM_ADMIN,
    body: SsoParseMetadataBodySchema,
    reply: SsoMetadataInfoSchema,
  }),
  login: defineRoute({
    method: 'GET',
    path: '/auth/sso/login/:domain',
    summary: 'Start a single sign-on: redirects to the identity provider with an AuthnRequest',
    access: PUBLIC,
    params: SsoDomainParamsSchema,
  }),
  acs: defineRoute({
    method: 'POST',
    path: '/auth/sso/acs/:domain',
    summary:
      "Assertion consumer: checks the provider's signed response, redirects to /login?sso_token=",
    access: PUBLIC,
    params: SsoDomainParamsSchema,
    body: SsoAcsBodySchema,
    csrfExempt: true,
  }),
  spMetadata: defineRoute({
    method: 'GET',
    path: '/auth/sso/metadata/:domain',
    summary: "Our service-provider metadata for a team (XML), for the identity provider's setup",
    access: PUBLIC,
    params: SsoDomainParamsSchema,
  }),
  pwSso: defineRoute({
    method: 'POST',
    path: '/auth/pw_sso/:token',
    summary: 'Exchange a single-use SSO credential for a session',
    access: PUBLIC,
    params: SsoTokenParamsSchema,
    reply: LoginReplySchema,
  }),
  cfSso: defineRoute({
    method: 'POST',
    path: '/auth/cf_sso/:token',
    summary: 'Exchange a single-use SSO credential for a session (same as pw_sso)',
    access: PUBLIC,
    params: SsoTokenParamsSchema,
    reply: LoginReplySchema,
  }),
} as const;
