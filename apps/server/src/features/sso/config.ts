/**
 * The team's SSO configuration (spec 2 §3, §5): reading it for the SSO tab, saving it with the
 * identity provider's metadata, and the URLs the provider must be given. Saving also keeps
 * `company.sso_open` and `company.sso_login_url` in step, which the login page reads through
 * `/auth/is_open_sso/{domain}`.
 */
import type { Selectable } from 'kysely';
import type { SsoConfigReply, SsoUpdateBody } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { AccountRow, CompanyRow, SsoConfigTable } from '../../db/schema';
import { invalidParameter } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { writeEvent } from '../events/writer';
import { findCompanyByDomain } from '../accounts';
import { decodeMetadataFile, describeCertificates, parseIdpMetadata } from './metadata';

export type SsoConfigRow = Selectable<SsoConfigTable>;

/** Our side of the federation for one team: what the identity provider is told. */
export interface SpUrls {
  /** Our entity ID, which is also where our metadata is served. */
  entityId: string;
  acsUrl: string;
  /** Absolute URL of the SP-initiated sign-in. */
  loginUrl: string;
  /** The same, relative: what the login page's SSO button links to. */
  loginPath: string;
}

/**
 * URLs are built from PUBLIC_URL and the team's canonical (lower-case) ID, never from the
 * request's Host header.
 */
export function spUrls(ctx: AppContext, team: Pick<CompanyRow, 'domain_key'>): SpUrls {
  const domain = encodeURIComponent(team.domain_key);
  const base = ctx.config.publicUrl;
  const loginPath = `/api/auth/sso/login/${domain}`;
  return {
    entityId: `${base}/api/auth/sso/metadata/${domain}`,
    acsUrl: `${base}/api/auth/sso/acs/${domain}`,
    loginUrl: `${base}${loginPath}`,
    loginPath,
  };
}

export async function loadSsoConfig(
  ctx: AppContext,
  companyId: number,
): Promise<SsoConfigRow | undefined> {
  return ctx.db
    .selectFrom('sso_config')
    .selectAll()
    .where('company_id', '=', companyId)
    .executeTakeFirst();
}

export function accessDomains(config: SsoConfigRow): string[] {
  try {
    const list: unknown = JSON.parse(config.access_white_list);
    return Array.isArray(list) ? list.filter((d): d is string => typeof d === 'string') : [];
  } catch {
    return [];
  }
}

export function idpCertificates(config: SsoConfigRow): string[] {
  try {
    const list: unknown = JSON.parse(config.idp_certs);
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** SSO is usable only when switched on and a provider (metadata with a certificate) is known. */
export function ssoUsable(config: SsoConfigRow | undefined): config is SsoConfigRow {
  return (
    config !== undefined &&
    config.is_open === 1 &&
    config.idp_entity_id !== '' &&
    config.idp_sso_url !== '' &&
    idpCertificates(config).length > 0
  );
}

export function configReply(
  ctx: AppContext,
  company: CompanyRow,
  config: SsoConfigRow | undefined,
): SsoConfigReply {
  const urls = spUrls(ctx, company);
  const certs = config ? idpCertificates(config) : [];
  return {
    is_open: config?.is_open === 1,
    is_account_password: config ? config.is_account_password === 1 : true,
    sso_type: 'SAML2.0',
    id_vendor: config?.id_vendor ?? '',
    login_url: urls.loginUrl,
    assertion_url: urls.acsUrl,
    sp_entity_id: urls.entityId,
    sp_metadata_url: urls.entityId,
    access_white_list: config ? accessDomains(config) : [],
    metadata:
      config && config.idp_entity_id
        ? {
            file_name: config.metadata_file_name,
            entity_id: config.idp_entity_id,
            sso_url: config.idp_sso_url,
            certificates: describeCertificates(certs),
          }
        : null,
  };
}

/**
 * Saves the SSO tab. A new metadata file replaces the stored one only once it parses; opening
 * SSO without any metadata is refused on `metadata` (spec 2 §5).
 */
export async function updateSsoConfig(
  ctx: AppContext,
  auth: AuthContext,
  body: SsoUpdateBody,
): Promise<SsoConfigReply> {
  const company = auth.company;
  const existing = await loadSsoConfig(ctx, company.id);
  const file = body.metadata?.[0];
  const xml = file ? decodeMetadataFile(file) : undefined;
  const parsed = xml !== undefined ? parseIdpMetadata(xml, 'metadata.0.content') : undefined;
  if (body.is_open && !parsed && !existing?.idp_entity_id) throw invalidParameter('metadata');

  const now = nowSeconds();
  const fields = {
    is_open: body.is_open ? 1 : 0,
    is_account_password: body.is_account_password ? 1 : 0,
    sso_type: body.sso_type,
    id_vendor: body.id_vendor,
    access_white_list: JSON.stringify([...new Set(body.access_white_list)]),
    updated_at: now,
    ...(parsed &&
      file && {
        metadata_xml: xml,
        metadata_file_name: file.file_name,
        idp_entity_id: parsed.entity_id,
        idp_sso_url: parsed.sso_url,
        idp_certs: JSON.stringify(parsed.certificatesPem),
      }),
  };
  await ctx.db.transaction().execute(async (trx) => {
    if (existing) {
      await trx
        .updateTable('sso_config')
        .set(fields)
        .where('company_id', '=', company.id)
        .execute();
    } else {
      await trx
        .insertInto('sso_config')
        .values({
          company_id: company.id,
          metadata_xml: null,
          metadata_file_name: '',
          idp_entity_id: '',
          idp_sso_url: '',
          idp_certs: '[]',
          created_at: now,
          ...fields,
        })
        .execute();
    }
    await trx
      .updateTable('company')
      .set({
        sso_open: fields.is_open,
        sso_login_url: fields.is_open ? spUrls(ctx, company).loginPath : '',
      })
      .where('id', '=', company.id)
      .execute();
  });
  await writeEvent(ctx, auth, 'team', 'updateSso');
  return configReply(ctx, company, await loadSsoConfig(ctx, company.id));
}

/**
 * The login page's SSO option for a team (`GET /auth/is_open_sso/{domain}`): the same answer
 * for an unknown team as for a team without SSO.
 */
export async function ssoOption(
  ctx: AppContext,
  domain: string,
): Promise<{
  is_open_sso: boolean;
  mfa: boolean;
  is_account_password: boolean;
  sso_service: string;
}> {
  const company = await findCompanyByDomain(ctx, domain);
  const config = company ? await loadSsoConfig(ctx, company.id) : undefined;
  const open = company !== undefined && ssoUsable(config);
  return {
    is_open_sso: open,
    mfa: false,
    is_account_password: open ? config.is_account_password === 1 : true,
    sso_service: open ? spUrls(ctx, company).loginPath : '',
  };
}

/**
 * Whether a member may still sign in with a Portcullis password: always, unless the team's
 * SSO is open with `is_account_password` off. Administrators (roles 1-4) keep their password
 * so that a broken identity provider cannot lock the team out.
 */
export async function passwordSignInAllowed(
  ctx: AppContext,
  account: Pick<AccountRow, 'company_id' | 'is_admin'>,
): Promise<boolean> {
  if (account.is_admin !== 0) return true;
  const config = await loadSsoConfig(ctx, account.company_id);
  return !(ssoUsable(config) && config.is_account_password === 0);
}
