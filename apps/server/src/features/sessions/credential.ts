/**
 * The target credential for one session, by the login user's auth_type (spec 2 §3 instance
 * data list): 0 the host password stored (sealed) with the login user, 1 the resource's own
 * private key that the key upload installed (features/autologin).
 *
 * auth_type 2, "team account password", is refused: the spec names it but never says where
 * that password comes from or how it reaches the server, and the product stores no password of
 * a member that could stand in for it (member passwords are kept only as argon2 hashes). Rather
 * than guess, a session for such a login user fails with InvalidResource and says why.
 */
import type { ResolvedCode, SessionCredential } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { resourcePrivateKey } from '../autologin/service';

const SSH_DEFAULT_PORT = 22;

/** A refusal whose catalogue text alone would not tell the member why. */
export class ExplainedRefusal extends AppError {
  constructor(
    code: ConstructorParameters<typeof AppError>[0],
    readonly explanation: string,
  ) {
    super(code);
  }
}

export async function sessionCredential(
  ctx: AppContext,
  resolved: ResolvedCode,
  username: string,
): Promise<SessionCredential> {
  if (resolved.resource.os !== 'linux') throw new AppError('MustBeLinuxServer');
  if (!resolved.login_users.includes(username)) throw new AppError('TunnelNotFound');
  const login = await ctx.db
    .selectFrom('resource_login')
    .selectAll()
    .where('resource_id', '=', resolved.resource.id)
    .where('username', '=', username)
    .executeTakeFirst();
  if (!login) throw new AppError('TunnelNotFound');
  const target = {
    host: resolved.resource.ip_address,
    port: resolved.resource.port || SSH_DEFAULT_PORT,
    username: login.username,
  };
  if (login.auth_type === 0 && login.secret_sealed) {
    return { ...target, password: ctx.sealer.open(login.secret_sealed) };
  }
  if (login.auth_type === 1) {
    const key = await resourcePrivateKey(ctx, resolved.resource.id);
    if (key) return { ...target, private_key: key };
  }
  if (login.auth_type === 2) {
    throw new ExplainedRefusal(
      'InvalidResource',
      'team account password login is not supported by this gateway; ask an administrator to use a host password or SSH key for this login user',
    );
  }
  // A host password never set, or no key made for the resource yet.
  throw new ExplainedRefusal('InvalidResource', 'no credential is set for this login user');
}
