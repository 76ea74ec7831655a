import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { AVATAR_MAX_BYTES, MESSAGES, type PasswordLevel } from '@portcullis/contract';
import { renderInApp } from '../../test/render';
import {
  checkAvatarFile,
  checkMetadataFile,
  contactPhoneRules,
  ipWhitelistRules,
  confirmPasswordRules,
  mfaCodeRules,
  mobileRules,
  nameRules,
  passwordRules,
  sshKeyNameRules,
  sshKeyRules,
  teamIdRules,
  toPasswordLevel,
} from './rules';

function PasswordForm({ level }: { level: PasswordLevel }) {
  const { t } = useTranslation();
  return (
    <Form>
      <Form.Item name="pwd" label="New password" rules={passwordRules(level, t)}>
        <Input.Password />
      </Form.Item>
      <Form.Item
        name="confirm"
        label="Repeat"
        dependencies={['pwd']}
        rules={confirmPasswordRules('pwd', t)}
      >
        <Input.Password />
      </Form.Item>
      <Button htmlType="submit">Save</Button>
    </Form>
  );
}

type Kind = 'mfa' | 'name' | 'mobile' | 'keyName' | 'key' | 'team' | 'phone' | 'whitelist';

function FieldForm({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  const rules = {
    mfa: mfaCodeRules(t),
    name: nameRules(t),
    mobile: mobileRules('13800000000', t),
    keyName: sshKeyNameRules(t),
    key: sshKeyRules(t),
    team: teamIdRules(t),
    phone: contactPhoneRules(t),
    whitelist: ipWhitelistRules(t),
  }[kind];
  return (
    <Form>
      <Form.Item name="value" label="Value" rules={rules}>
        <Input />
      </Form.Item>
      <Button htmlType="submit">Save</Button>
    </Form>
  );
}

async function submitWith(value: string): Promise<void> {
  const input = screen.getByRole('textbox', { name: 'Value' });
  fireEvent.change(input, { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
}

describe('password rules', () => {
  it('ask for the password and its repeat with the spec texts', async () => {
    renderInApp(<PasswordForm level={0} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MESSAGES.passwordRequired.en)).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.passwordAgainRequired.en)).toBeInTheDocument();
  });

  it('reject a mismatch', async () => {
    const user = userEvent.setup({ delay: null });
    renderInApp(<PasswordForm level={0} />);
    await user.type(await screen.findByLabelText('New password'), 'abc');
    await user.type(screen.getByLabelText('Repeat'), 'abd');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MESSAGES.passwordMismatch.en)).toBeInTheDocument();
  });

  it.each([
    [1, 'abcdef', MESSAGES.passwordLevel1.en],
    [1, 'Ab1', MESSAGES.passwordLevel1.en],
    [2, 'Abcdefg1', MESSAGES.passwordLevel2.en],
  ] as const)('level %i refuses %s', async (level, pwd, text) => {
    const user = userEvent.setup({ delay: null });
    renderInApp(<PasswordForm level={level} />);
    await user.type(await screen.findByLabelText('New password'), pwd);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('level 2 accepts a password with upper, lower and special characters', async () => {
    const user = userEvent.setup({ delay: null });
    renderInApp(<PasswordForm level={2} />);
    await user.type(await screen.findByLabelText('New password'), 'Abcdefg#');
    await user.type(screen.getByLabelText('Repeat'), 'Abcdefg#');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.queryByText(MESSAGES.passwordLevel2.en)).not.toBeInTheDocument();
  });

  it('reads the level from a query string', () => {
    expect(toPasswordLevel('2')).toBe(2);
    expect(toPasswordLevel('7')).toBe(0);
    expect(toPasswordLevel(null)).toBe(0);
    expect(toPasswordLevel(1)).toBe(1);
  });
});

describe('field rules', () => {
  it('MFA code: exactly six digits', async () => {
    renderInApp(<FieldForm kind="mfa" />);
    await screen.findByRole('textbox', { name: 'Value' });
    await submitWith('12345');
    expect(await screen.findByText(MESSAGES.mfaCode.en)).toBeInTheDocument();
  });

  it('name: required, not blank, at most 20 characters', async () => {
    renderInApp(<FieldForm kind="name" />);
    await screen.findByRole('textbox', { name: 'Value' });
    await submitWith('   ');
    expect(await screen.findByText('Please enter your name')).toBeInTheDocument();
    await submitWith('x'.repeat(21));
    expect(await screen.findByText('The name can be at most 20 characters')).toBeInTheDocument();
  });

  it('mobile: the mainland pattern, and not the current number', async () => {
    renderInApp(<FieldForm kind="mobile" />);
    await screen.findByRole('textbox', { name: 'Value' });
    await submitWith('12800000000');
    expect(await screen.findByText('Please enter a valid mobile number')).toBeInTheDocument();
    await submitWith('13800000000');
    expect(await screen.findByText('This is already your mobile number')).toBeInTheDocument();
  });

  it('SSH key: name required and at most 20, key required', async () => {
    renderInApp(<FieldForm kind="keyName" />);
    await screen.findByRole('textbox', { name: 'Value' });
    await submitWith('');
    expect(await screen.findByText('Please enter a name for the key')).toBeInTheDocument();
    await submitWith('k'.repeat(21));
    expect(await screen.findByText('The name can be at most 20 characters')).toBeInTheDocument();
  });

  it('SSH key: the key is required', async () => {
    renderInApp(<FieldForm kind="key" />);
    await screen.findByRole('textbox', { name: 'Value' });
    await submitWith(' ');
    expect(await screen.findByText('Please paste the public key')).toBeInTheDocument();
  });

  it('team ID: 2 to 32 letters or digits', async () => {
    renderInApp(<FieldForm kind="team" />);
    await screen.findByRole('textbox', { name: 'Value' });
    await submitWith('a-b');
    expect(await screen.findByText('The team ID is 2 to 32 letters or digits')).toBeInTheDocument();
  });
});

describe('avatar files', () => {
  it('accepts png, gif and jpeg up to 1 MB', () => {
    expect(checkAvatarFile({ name: 'a.png', type: 'image/png', size: 10 })).toBeNull();
    expect(checkAvatarFile({ name: 'a.gif', type: 'image/gif', size: 10 })).toBeNull();
    expect(
      checkAvatarFile({ name: 'a.jpg', type: 'image/jpeg', size: AVATAR_MAX_BYTES }),
    ).toBeNull();
  });

  it('refuses other types and larger files', () => {
    expect(checkAvatarFile({ name: 'a.svg', type: 'image/svg+xml', size: 10 })).toBe('type');
    expect(checkAvatarFile({ name: 'a.png', type: 'text/plain', size: 10 })).toBe('type');
    expect(checkAvatarFile({ name: 'a.png', type: 'image/png', size: AVATAR_MAX_BYTES + 1 })).toBe(
      'size',
    );
  });
});

describe('team settings rules', () => {
  it('contact phone: required, the mainland mobile pattern', async () => {
    renderInApp(<FieldForm kind="phone" />);
    await screen.findByRole('textbox', { name: 'Value' });
    await submitWith(' ');
    expect(await screen.findByText('Please enter a mobile number')).toBeInTheDocument();
    await submitWith('19800000000');
    expect(await screen.findByText('Please enter a valid mobile number')).toBeInTheDocument();
  });

  it.each(['10.0.0.0/24', '10.0.0', '256.1.1.1', '10.0.0.1;10.0.0.2'])(
    'IP whitelist refuses %s',
    async (value) => {
      renderInApp(<FieldForm kind="whitelist" />);
      await screen.findByRole('textbox', { name: 'Value' });
      await submitWith(value);
      expect(await screen.findByText(/Comma-separated IPv4 addresses/)).toBeInTheDocument();
    },
  );

  it('IP whitelist accepts addresses with * and spaces after commas, or nothing', async () => {
    renderInApp(<FieldForm kind="whitelist" />);
    await screen.findByRole('textbox', { name: 'Value' });
    await submitWith('10.0.*.*, 192.168.1.8');
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.queryByText(/Comma-separated IPv4 addresses/)).not.toBeInTheDocument();
  });

  it('SSO metadata: xml only, at most 5 MB', () => {
    expect(checkMetadataFile({ name: 'idp.XML', size: 10 })).toBeNull();
    expect(checkMetadataFile({ name: 'idp.txt', size: 10 })).toBe('type');
    expect(checkMetadataFile({ name: 'idp.xml', size: 5 * 1_048_576 + 1 })).toBe('size');
  });
});
