import { countRows, pageOf, paged } from '../../lib/paging';
import type { FastifyInstance } from 'fastify';
import { accountRoutes } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import { requireAuth } from '../../plugins/app/auth';
import { registerRoute } from '../../plugins/app/route';
import { parsePublicKey } from './parse';

export function registerSshKeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const columns = ['id', 'title', 'fingerprint', 'key_type', 'create_time', 'last_time'] as const;

  registerRoute(app, accountRoutes.listSshKeys, async ({ query, request }) => {
    const auth = requireAuth(request);
    const base = ctx.db.selectFrom('account_pubkey').where('account_id', '=', auth.account.id);
    const total = await countRows(base);
    const objects = await base
      .select(columns)
      .orderBy('create_time', 'desc')
      .orderBy('id', 'desc')
      .$call((qb) => pageOf(qb, query))
      .execute();
    return paged(objects, total, query);
  });

  registerRoute(app, accountRoutes.createSshKey, async ({ body, request }) => {
    const auth = requireAuth(request);
    const key = parsePublicKey(body.pubkey);
    const exists = await ctx.db
      .selectFrom('account_pubkey')
      .select('id')
      .where('company_id', '=', auth.company.id)
      .where('fingerprint', '=', key.fingerprint)
      .executeTakeFirst();
    if (exists) throw new AppError('AccountPubKeyExist');
    try {
      return await ctx.db
        .insertInto('account_pubkey')
        .values({
          company_id: auth.company.id,
          account_id: auth.account.id,
          title: body.title,
          key_type: key.type,
          fingerprint: key.fingerprint,
          pubkey: key.normalized,
          create_time: nowSeconds(),
          last_time: null,
        })
        .returning(columns)
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (/unique|duplicate/i.test(String((error as Error).message)))
        throw new AppError('AccountPubKeyExist');
      throw error;
    }
  });

  registerRoute(app, accountRoutes.deleteSshKey, async ({ params, request }) => {
    const auth = requireAuth(request);
    const result = await ctx.db
      .deleteFrom('account_pubkey')
      .where('id', '=', params.id)
      .where('account_id', '=', auth.account.id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new AppError('AccountPubKeyNotFound');
    return { ok: true as const };
  });
}
