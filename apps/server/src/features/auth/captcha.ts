/**
 * Image captchas. Each GET /auth/captcha makes a new answer, bound to the browser by an
 * httpOnly cookie; an answer is checked at most once, then discarded.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import svgCaptcha from 'svg-captcha';
import { CAPTCHA_TTL_SECONDS } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { randomToken, safeEqual, sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/time';

export const CAPTCHA_COOKIE = 'pc_captcha';

export async function issueCaptcha(ctx: AppContext, reply: FastifyReply): Promise<string> {
  const captcha = svgCaptcha.create({
    size: 4,
    noise: 2,
    ignoreChars: '0oO1lIi',
    color: true,
    background: '#f4f6f8',
  });
  const id = randomToken(18);
  const now = nowSeconds();
  await ctx.db.deleteFrom('captcha').where('expires_at', '<', now).execute();
  await ctx.db
    .insertInto('captcha')
    .values({
      id: sha256Hex(id),
      answer: captcha.text.toLowerCase(),
      expires_at: now + CAPTCHA_TTL_SECONDS,
    })
    .execute();
  reply.setCookie(CAPTCHA_COOKIE, id, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.config.secureCookies,
  });
  return captcha.data;
}

/** True when the answer matches the captcha this browser was last shown. */
export async function checkCaptcha(
  ctx: AppContext,
  request: FastifyRequest,
  answer: string,
): Promise<boolean> {
  const id = request.cookies[CAPTCHA_COOKIE];
  if (!id || !answer) return false;
  const key = sha256Hex(id);
  const row = await ctx.db
    .selectFrom('captcha')
    .selectAll()
    .where('id', '=', key)
    .executeTakeFirst();
  if (!row) return false;
  await ctx.db.deleteFrom('captcha').where('id', '=', key).execute();
  return row.expires_at > nowSeconds() && safeEqual(row.answer, answer.trim().toLowerCase());
}
