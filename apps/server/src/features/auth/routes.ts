import type { FastifyInstance } from 'fastify';
import { authRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { endSession, requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { createTeam } from '../company/teams';
import { ssoOption } from '../sso/config';
import { checkCaptcha, issueCaptcha } from './captcha';
import { recentFailures, loginKey } from './lockout';
import { finishMfaLogin, login } from './login-service';
import { verifyLoginCode } from './mfa';
import { requestReset, resetPassword, sendPasswordLink } from './recovery';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, authRoutes.login, ({ body, request, reply }) =>
    login(ctx, request, reply, body),
  );

  registerRoute(app, authRoutes.logout, async ({ request, reply }) => {
    await endSession(ctx, request, reply);
    return { ok: true as const };
  });

  registerRoute(app, authRoutes.mfa, async ({ body, request }) => {
    const auth = requireAuth(request);
    await verifyLoginCode(ctx, auth, body.code, request.ip);
    return finishMfaLogin(ctx, auth);
  });

  registerRoute(app, authRoutes.captcha, async ({ reply }) => {
    const svg = await issueCaptcha(ctx, reply);
    return reply.header('cache-control', 'no-store').type('image/svg+xml').send(svg);
  });

  registerRoute(app, authRoutes.showCaptcha, async ({ query }) => {
    if (!query.domain || !query.username) return { captcha: false };
    return { captcha: (await recentFailures(ctx, loginKey(query.domain, query.username))) > 0 };
  });

  registerRoute(app, authRoutes.isOpenSso, ({ params }) => ssoOption(ctx, params.domain));

  registerRoute(app, authRoutes.register, async ({ body, request }) => {
    if (!(await checkCaptcha(ctx, request, body.captcha))) throw new AppError('CaptchaIncorrect');
    const { company, account } = await createTeam(ctx, {
      domain: body.company.domain,
      fullName: body.company.full_name,
      contactName: body.company.contact_name,
      contactAddress: body.company.contact_address,
      contactPhone: body.company.contact_phone,
      email: body.company.email,
      admin: { account: body.account.account, name: body.account.name, password: null },
    });
    await sendPasswordLink(ctx, account, company, 'welcome');
    request.log.info({ companyId: company.id }, 'team registered');
    return { ok: true as const };
  });

  registerRoute(app, authRoutes.resetPasswordMail, async ({ body, request }) => {
    if (!(await checkCaptcha(ctx, request, body.captcha))) throw new AppError('CaptchaIncorrect');
    await requestReset(ctx, body.domain, body.account);
    return { ok: true as const };
  });

  registerRoute(app, authRoutes.resetPassword, async ({ body }) => {
    await resetPassword(ctx, body.code, body.account, body.pwd);
    return { ok: true as const };
  });
}
