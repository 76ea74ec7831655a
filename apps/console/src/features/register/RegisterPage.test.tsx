import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@portcullis/contract';
import { apiError, mockApi } from '../../test/api-mock';
import { renderApp } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

async function fill(user: ReturnType<typeof userEvent.setup>, teamId = 'acme42') {
  await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'boss@acme.test');
  await user.type(screen.getByRole('textbox', { name: 'Nickname' }), 'Boss');
  await user.type(screen.getByRole('textbox', { name: 'Contact address' }), '1 Main St');
  await user.type(screen.getByRole('textbox', { name: 'Mobile number' }), '13912345678');
  await user.type(screen.getByRole('textbox', { name: 'Team ID' }), teamId);
  await user.type(screen.getByRole('textbox', { name: 'Company name' }), 'Acme');
  await user.type(screen.getByRole('textbox', { name: 'Captcha' }), 'x1y2');
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

describe('register', () => {
  it('checks the team ID and the required fields', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({});
    renderApp('/register');
    await user.click(await screen.findByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Please enter a contact address')).toBeInTheDocument();
    expect(screen.getByText('Please enter the company name')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Team ID' }), 'a');
    expect(await screen.findByText('The team ID is 2 to 32 letters or digits')).toBeInTheDocument();
  });

  it('sends the registration payload and goes to /login', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({ 'POST /api/auth/register': { ok: true } });
    const app = renderApp('/register');
    await fill(user);
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(await screen.findByText(MESSAGES.registerSuccess.en)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      captcha: 'x1y2',
      company: {
        domain: 'acme42',
        email: 'boss@acme.test',
        full_name: 'Acme',
        contact_name: 'Boss',
        contact_address: '1 Main St',
        contact_phone: '13912345678',
      },
      account: { account: 'boss@acme.test', name: 'Boss' },
    });
  });

  it("says 'Register failed!' with the reason", async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({ 'POST /api/auth/register': apiError(409, 'DomainInUse') });
    renderApp('/register');
    await fill(user);
    expect(
      await screen.findByText(`${MESSAGES.registerFailed.en} The team ID is already in use`),
    ).toBeInTheDocument();
  });
});
