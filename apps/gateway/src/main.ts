#!/usr/bin/env -S node --import tsx
/**
 * portcullis-gateway: the cluster agent. Reads its config (see core/config.ts), dials the
 * server's control channel and stays connected until stopped (SIGINT/SIGTERM), the key is
 * refused, or the server requires an update; the exit code says which (core/exit-codes.ts).
 */
// First: V8's settings apply to what is loaded after them (core/jit-tuning.ts).
import './core/jit-tuning';
import path from 'node:path';
import { startGateway } from './control/client';
import { insecureServerProblem } from './control/url';
import { ConfigError, loadConfig, readableByOthers, USAGE, type CliRequest } from './core/config';
import {
  EXIT_FAILURE,
  EXIT_KEY_REJECTED,
  EXIT_OK,
  EXIT_UPDATE_REQUIRED,
  EXIT_USAGE,
} from './core/exit-codes';
import { createLogger } from './core/logger';
import { GATEWAY_VERSION } from './core/version';
import { isJudgeWorker, runJudgeWorker, useJudgeWorkerEntry } from './sql-audit';
import { runSshWorker, SSH_WORKER_FLAG } from './ssh-proxy/pool/worker';

async function main(): Promise<number> {
  if (process.argv[2] === SSH_WORKER_FLAG) {
    // Started by this gateway's primary: carry SSH sessions until it goes.
    runSshWorker();
    return new Promise<number>(() => undefined);
  }
  let request: CliRequest;
  try {
    request = loadConfig(process.argv.slice(2), process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(
      `portcullis-gateway: ${err.message}\nRun portcullis-gateway --help for usage.\n`,
    );
    return EXIT_USAGE;
  }
  if (request.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT_OK;
  }
  if (request.kind === 'version') {
    process.stdout.write(`${GATEWAY_VERSION}\n`);
    return EXIT_OK;
  }

  const { config } = request;
  const logger = createLogger({ level: config.logLevel });
  if (config.keySource === 'flag') {
    logger.warn(
      'the cluster key on the command line is visible to local users; prefer PORTCULLIS_GATEWAY_KEY or the config file',
    );
  }
  if (config.keySource === 'file' && config.configFile && readableByOthers(config.configFile)) {
    logger.warn(
      { file: config.configFile },
      'the config file holding the cluster key is readable by other users; chmod 600 it',
    );
  }
  if (config.insecureHttp && insecureServerProblem(config.server) !== null) {
    logger.warn(
      { server: new URL(config.server).origin },
      'the control channel runs over plain http:// (--insecure-http): the cluster key and the targets’ credentials cross the network in clear',
    );
  }
  logger.info(
    { version: GATEWAY_VERSION, server: new URL(config.server).origin },
    'portcullis-gateway starting',
  );

  const dataDir = config.dataDir ?? path.resolve('data', 'gateway');
  // Large SQL texts are judged in a worker thread running this same entry file.
  useJudgeWorkerEntry(process.argv[1]!);
  const gateway = startGateway({
    server: config.server,
    key: config.key,
    host: config.host,
    ports: config.ports,
    logger,
    sshProxy: {
      dataDir,
      // The workers run this same entry file (main.ts under tsx, or the bundle) in worker mode.
      ...(config.sshWorkers > 0 && {
        workers: {
          count: config.sshWorkers,
          entry: process.argv[1]!,
          execArgv: process.execArgv,
          logLevel: config.logLevel,
        },
      }),
    },
    webTerminal: { dataDir },
    databaseProxies: { dataDir, pgKeepIdleSeconds: config.pgKeepIdle },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'stopping');
      void gateway.stop();
    });
  }
  const exit = await gateway.done;
  switch (exit.reason) {
    case 'key_rejected':
      return EXIT_KEY_REJECTED;
    case 'update_required':
      return EXIT_UPDATE_REQUIRED;
    default:
      return EXIT_OK;
  }
}

// The SQL judge's worker thread runs this same file (sql-audit/off-thread.ts).
if (isJudgeWorker()) runJudgeWorker();
else void run();

function run(): Promise<void> {
  return main().then(
    (code) => {
      process.exitCode = code;
      // Give stdout a moment to drain; then leave even if a stray handle is still open.
      setTimeout(() => process.exit(code), 100).unref();
    },
    (err: unknown) => {
      process.stderr.write(`portcullis-gateway: unexpected failure: ${String(err)}\n`);
      process.exit(EXIT_FAILURE);
    },
  );
}
