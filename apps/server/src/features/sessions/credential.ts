/**
 * The target credential for one session, by the login user's auth_type (spec 2 §3 instance
 * data list): 0 the host password stored (sealed) with the login user, 1 the resource's own
 * private key that the key upload installed (features/autologin), 2 "team account password":
 * no password is stored for it (the spec never says where one would come from, and member
 * passwords are kept only as argon2 hashes), so the member types the login user's password at
 * connect (the SSH proxy asks by keyboard-interactive, the web terminal in the terminal) and
 * the gateway tries it on the target for that login only.
 */
import type { ResolvedCode, SessionCredential } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { resourcePrivateKey } from '../autologin/service';
import type { LoginRow } from '../resources/service';
import { databaseTls } from '../resources/db-tls';
import { pinnedHostKey } from './host-key';

const SSH_DEFAULT_PORT = 22;
const DATABASE_DEFAULT_PORT: Record<string, number> = { mysql: 3306, postgresql: 5432 };

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
  /** The resource's login users when the caller has just read them (the code check has). */
  known?: LoginRow[],
  /** A database's TLS columns when the caller has just read its row (the code check has). */
  tlsRow?: { tls_mode: string; tls_ca: string },
): Promise<SessionCredential> {
  const os = resolved.resource.os;
  if (os !== 'linux' && !(os in DATABASE_DEFAULT_PORT)) throw new AppError('MustBeLinuxServer');
  // A database has one connect account, which no workgroup chooses among (login_users is
  // empty for it): the gateway's user name is not asked.
  const database = os !== 'linux';
  if (!database && !resolved.login_users.includes(username)) throw new AppError('TunnelNotFound');
  const login = known
    ? database
      ? [...known].sort((a, b) => a.position - b.position)[0]
      : known.find((l) => l.username === username)
    : await loginRow(ctx, resolved.resource.id, database ? null : username);
  if (!login) throw new AppError('TunnelNotFound');
  const address = {
    host: resolved.resource.ip_address,
    port: resolved.resource.port || (DATABASE_DEFAULT_PORT[os] ?? SSH_DEFAULT_PORT),
    username: login.username,
  };
  // A database's connect account: its password (a database user may have none).
  if (database) {
    const columns = tlsRow ?? (await tlsColumnsOf(ctx, resolved.resource.id));
    const tls = databaseTls({ os, ...columns });
    return {
      ...address,
      password: login.secret_sealed ? ctx.sealer.open(login.secret_sealed) : '',
      ...(tls && { tls }),
    };
  }
  const { moved, hostKey } = await pinnedHostKey(ctx, resolved.resource);
  if (moved) {
    throw new ExplainedRefusal('InvalidResource', 'the resource moved meanwhile; connect again');
  }
  const target = { ...address, ...(hostKey !== undefined && { host_key: hostKey }) };
  if (login.auth_type === 0 && login.secret_sealed) {
    return { ...target, password: ctx.sealer.open(login.secret_sealed) };
  }
  if (login.auth_type === 1) {
    const key = await resourcePrivateKey(ctx, resolved.resource.id);
    if (key) return { ...target, private_key: key };
  }
  if (login.auth_type === 2) return { ...target, ask_password: true };
  // A host password never set, or no key made for the resource yet.
  throw new ExplainedRefusal('InvalidResource', 'no credential is set for this login user');
}

/** A database's TLS mode and CAs, read when the caller has not read its row. */
async function tlsColumnsOf(
  ctx: AppContext,
  resourceId: number,
): Promise<{ tls_mode: string; tls_ca: string }> {
  const row = await ctx.db
    .selectFrom('resource')
    .select(['tls_mode', 'tls_ca'])
    .where('id', '=', resourceId)
    .executeTakeFirst();
  if (!row) throw new AppError('TunnelNotFound');
  return row;
}

/** The database's connect account (the first by position), or the named login user. */
function loginRow(
  ctx: AppContext,
  resourceId: number,
  username: string | null,
): Promise<LoginRow | undefined> {
  const query = ctx.db
    .selectFrom('resource_login')
    .selectAll()
    .where('resource_id', '=', resourceId);
  return (
    username === null ? query.orderBy('position') : query.where('username', '=', username)
  ).executeTakeFirst();
}
