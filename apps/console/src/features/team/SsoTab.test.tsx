import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SsoConfigReply } from '@portcullis/contract';
import { apiError, mockApi, type RecordedCall } from '../../test/api-mock';
import { shellReplies } from '../../test/fixtures';
import { renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

const BASE = 'https://bastion.example';
const FINGERPRINT = Array.from({ length: 32 }, () => 'AB').join(':');

function config(overrides: Partial<SsoConfigReply> = {}): SsoConfigReply {
  return {
    is_open: false,
    is_account_password: true,
    sso_type: 'SAML2.0',
    id_vendor: '',
    login_url: `${BASE}/api/auth/sso/login/demo`,
    assertion_url: `${BASE}/api/auth/sso/acs/demo`,
    sp_entity_id: `${BASE}/api/auth/sso/metadata/demo`,
    sp_metadata_url: `${BASE}/api/auth/sso/metadata/demo`,
    access_white_list: [],
    metadata: null,
    ...overrides,
  };
}

const PARSED = {
  entity_id: 'https://idp.example/entity',
  sso_url: 'https://idp.example/sso',
  certificates: [
    {
      subject: 'CN=Test IdP',
      issuer: 'CN=Test IdP',
      fingerprint_sha256: FINGERPRINT,
      not_before: 1_700_000_000,
      not_after: 1_900_000_000,
    },
  ],
};

function upload(file: File): void {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

describe('SSO tab', () => {
  it('shows the URLs to give the provider, and asks for what opening SSO needs', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({ ...shellReplies(), 'GET /api/sso/config': config() });
    renderApp('/settings/team?type=sso');
    expect(await screen.findByText(`${BASE}/api/auth/sso/acs/demo`)).toBeInTheDocument();
    expect(screen.getByText(`${BASE}/api/auth/sso/login/demo`)).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Single sign-on' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText("Please enter the identity provider's name"),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Add at least one e-mail domain while single sign-on is open'),
    ).toBeInTheDocument();
    expect(
      screen.getByText("Please upload the identity provider's metadata file"),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Identity provider' }), {
      target: { value: 'x'.repeat(65) },
    });
    expect(await screen.findByText('At most 64 characters')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('refuses a non-xml or too large file before sending it', async () => {
    const { calls } = mockApi({ ...shellReplies(), 'GET /api/sso/config': config() });
    renderApp('/settings/team?type=sso');
    await screen.findByText(`${BASE}/api/auth/sso/acs/demo`);
    upload(new File(['hello'], 'metadata.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Only an .xml file can be used.')).toBeInTheDocument();
    const big = new File(['<x/>'], 'big.xml', { type: 'text/xml' });
    Object.defineProperty(big, 'size', { value: 5 * 1_048_576 + 1 });
    upload(big);
    expect(await screen.findByText('The maximum supported file size is 5M.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/sso/parse_metadata')).toBe(false);
  });

  it('reads the metadata through the server and saves the whole form', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({
      ...shellReplies(),
      'GET /api/sso/config': config(),
      'POST /api/sso/parse_metadata': PARSED,
      'PATCH /api/sso/update_config': (call: RecordedCall) => {
        const { metadata: _file, ...rest } = call.body as Record<string, unknown>;
        return config({ ...rest, metadata: { ...PARSED, file_name: 'idp.xml' } });
      },
    });
    renderApp('/settings/team?type=sso');
    await screen.findByText(`${BASE}/api/auth/sso/acs/demo`);
    await user.click(screen.getByRole('switch', { name: 'Single sign-on' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Identity provider' }), {
      target: { value: ' Okta ' },
    });
    const domains = screen.getByRole('combobox', { name: 'Access white list' });
    await user.type(domains, 'Corp.Example{Enter}');
    upload(new File(['<EntityDescriptor/>'], 'idp.xml', { type: 'text/xml' }));
    expect(await screen.findByText('https://idp.example/entity')).toBeInTheDocument();
    expect(screen.getByText(FINGERPRINT)).toBeInTheDocument();
    expect(screen.getByText('The new metadata is used once you save.')).toBeInTheDocument();
    const parse = calls.find((c) => c.path === '/api/sso/parse_metadata');
    expect(parse?.body).toEqual({
      metadata: [{ file_name: 'idp.xml', content: btoa('<EntityDescriptor/>') }],
    });

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Update successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      is_open: true,
      is_account_password: true,
      sso_type: 'SAML2.0',
      id_vendor: 'Okta',
      access_white_list: ['corp.example'],
      metadata: [{ file_name: 'idp.xml', content: btoa('<EntityDescriptor/>') }],
    });
    await waitFor(() =>
      expect(screen.queryByText('The new metadata is used once you save.')).not.toBeInTheDocument(),
    );
  });

  it('keeps the stored metadata when saving without a new file', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({
      ...shellReplies(),
      'GET /api/sso/config': config({
        is_open: true,
        id_vendor: 'Okta',
        access_white_list: ['corp.example'],
        metadata: { ...PARSED, file_name: 'stored.xml' },
      }),
      'PATCH /api/sso/update_config': apiError(400, 'InvalidParameter'),
    });
    renderApp('/settings/team?type=sso');
    expect(await screen.findByText('stored.xml')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Account passwords' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Invalid parameter/)).toBeInTheDocument();
    const body = calls.find((c) => c.method === 'PATCH')?.body as Record<string, unknown>;
    expect(body.metadata).toBeUndefined();
    expect(body.is_account_password).toBe(false);
  });
});
