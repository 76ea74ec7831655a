/**
 * `npm start` runs this: the API and console on PORT (8080), with the first-run team.
 */
import { loadConfig } from './config';
import { buildApp } from './app';
import { ensureFirstTeam } from './features/company/first-run';
import { ensureLocalGateway } from './features/clusters/local-gateway';

async function main(): Promise<void> {
  const config = loadConfig();
  const { app, ctx } = await buildApp(config);
  const first = await ensureFirstTeam(ctx);
  await app.listen({ port: config.port, host: config.host });
  // The local gateway of `npm start` (LOCAL_GATEWAY=off leaves it out).
  if (process.env.LOCAL_GATEWAY !== 'off') await ensureLocalGateway(ctx, config.port);
  if (first) {
    // Printed once, on the terminal only; the database keeps an argon2id hash.
    const lines = [
      '',
      '  Portcullis first run: your team is ready.',
      `    Team ID:  ${first.domain}`,
      `    Account:  ${first.adminEmail}`,
      first.generatedPassword
        ? `    Password: ${first.generatedPassword}   (shown only this once; you choose a new one at the first sign-in)`
        : '    Password: the one in PORTCULLIS_ADMIN_PASSWORD',
      `  Open ${config.publicUrl}/login`,
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
