import type { FastifyInstance } from 'fastify';
import { accountRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { requireAuth, setSessionStage } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { bindMfa, pendingSecret, pendingSecretQr, unbindMfa } from '../auth/mfa';
import { assertOwnAvatar } from '../files/service';
import {
  avatarUrl,
  changeOwnPassword,
  currentAccountReply,
  sendMobileCode,
  verifyMobile,
} from './service';

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, accountRoutes.currentAccount, ({ request }) =>
    currentAccountReply(ctx, requireAuth(request)),
  );

  registerRoute(app, accountRoutes.getAccount, async ({ params, request }) => {
    const auth = requireAuth(request);
    // Oneself, or (for a team administrator) any member of the same team; nothing else exists.
    if (params.id !== auth.account.id && auth.account.is_admin !== 1)
      throw new AppError('AccountNotFound');
    const row = await ctx.db
      .selectFrom('account')
      .selectAll()
      .where('id', '=', params.id)
      .where('company_id', '=', auth.company.id)
      .executeTakeFirst();
    if (!row) throw new AppError('AccountNotFound');
    return {
      id: row.id,
      name: row.name,
      account: row.account,
      avatar: avatarUrl(row),
      is_admin: row.is_admin,
      status: row.status !== 0,
    };
  });

  registerRoute(app, accountRoutes.updateCurrentAccount, async ({ body, request }) => {
    const auth = requireAuth(request);
    if (body.avatar !== undefined) await assertOwnAvatar(ctx, auth, body.avatar);
    await ctx.db
      .updateTable('account')
      .set({
        ...(body.name !== undefined && { name: body.name }),
        ...(body.avatar !== undefined && { avatar: body.avatar }),
      })
      .where('id', '=', auth.account.id)
      .execute();
    return { ok: true as const };
  });

  registerRoute(app, accountRoutes.changePassword, async ({ body, request }) => {
    await changeOwnPassword(ctx, requireAuth(request), body.pwd);
    return { ok: true as const };
  });

  registerRoute(app, accountRoutes.sendVerifySms, async ({ body, request }) => {
    await sendMobileCode(ctx, requireAuth(request), body.mobile);
    return { ok: true as const };
  });

  registerRoute(app, accountRoutes.verifyMobile, async ({ body, request }) => {
    await verifyMobile(ctx, requireAuth(request), body.mobile, body.code);
    return { ok: true as const };
  });

  registerRoute(app, accountRoutes.accountMfa, async ({ body, request }) => {
    const auth = requireAuth(request);
    if (body.otp_enabled === 1) {
      await bindMfa(ctx, auth, body.first_code, body.second_code);
      if (auth.session.stage === 'bind_mfa') await setSessionStage(ctx, auth, 'full');
    } else {
      await unbindMfa(ctx, auth, body.first_code, body.second_code);
    }
    return { ok: true as const };
  });

  registerRoute(app, accountRoutes.mfaSecret, async ({ request, reply }) => {
    reply.header('cache-control', 'no-store');
    return pendingSecret(ctx, requireAuth(request));
  });

  registerRoute(app, accountRoutes.mfaImg, async ({ request, reply }) => {
    const png = await pendingSecretQr(ctx, requireAuth(request));
    return reply.header('cache-control', 'no-store').type('image/png').send(png);
  });
}
