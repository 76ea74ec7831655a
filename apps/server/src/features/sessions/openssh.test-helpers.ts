/**
 * Runs the stock OpenSSH clients (ssh, scp, sftp) against the gateway's SSH proxy in tests:
 * no user config, no known-hosts file, and an askpass script so passwords and the keyboard
 * prompt can be answered without a terminal. Test-only.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface RunResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export function run(
  command: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
    // A command that exits without reading its input closes the pipe first (EPIPE).
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

export interface OpenSshClient {
  dir: string;
  keyFile: string;
  publicKey: string;
  /** Options every client gets; `auth` picks the method. */
  options(auth: 'publickey' | 'password' | 'keyboard-interactive'): string[];
  /**
   * OpenSSH's own settings (its default order of methods, publickey, keyboard-interactive,
   * password, and three password prompts), with only the test's key and no host-key checks.
   */
  defaults(): string[];
  /**
   * Environment answering every password or keyboard prompt with `secret`; with `prompts`,
   * each prompt's text is appended to that file, a line each.
   */
  askpass(secret: string, prompts?: string): NodeJS.ProcessEnv;
}

export async function openSshClient(dir: string): Promise<OpenSshClient> {
  const keyFile = path.join(dir, 'member_ed25519');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'member@test', '-f', keyFile]);
  const askpass = path.join(dir, 'askpass.sh');
  fs.writeFileSync(
    askpass,
    '#!/bin/sh\n' +
      '[ -n "$PORTCULLIS_TEST_PROMPTS" ] && printf "%s\\n" "$1" >> "$PORTCULLIS_TEST_PROMPTS"\n' +
      'printf "%s\\n" "$PORTCULLIS_TEST_SECRET"\n',
    { mode: 0o700 },
  );
  const hostKeys = [
    '-F',
    '/dev/null',
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
  ];
  return {
    dir,
    keyFile,
    publicKey: fs.readFileSync(`${keyFile}.pub`, 'utf8').trim(),
    defaults: () => [...hostKeys, '-o', 'IdentitiesOnly=yes', '-i', keyFile],
    options: (auth) => [
      ...hostKeys,
      '-o',
      `PreferredAuthentications=${auth}`,
      '-o',
      `BatchMode=${auth === 'publickey' ? 'yes' : 'no'}`,
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      'NumberOfPasswordPrompts=1',
      '-i',
      keyFile,
    ],
    askpass: (secret, prompts) => ({
      SSH_ASKPASS: askpass,
      SSH_ASKPASS_REQUIRE: 'force',
      DISPLAY: ':0',
      PORTCULLIS_TEST_SECRET: secret,
      ...(prompts && { PORTCULLIS_TEST_PROMPTS: prompts }),
    }),
  };
}

/**
 * Writes an ssh_config in the client's folder naming the gateway `gw` (user: the code, the
 * client's key, no host-key checks) for `ssh -J gw …`; `hosts` (given the file's path) adds
 * more entries. Returns the file's path.
 */
export function gatewayJumpConfig(
  client: OpenSshClient,
  port: number,
  code: string,
  hosts: (file: string) => string[] = () => [],
): string {
  const file = path.join(client.dir, 'jump_config');
  fs.writeFileSync(
    file,
    [
      'Host *',
      '  IdentitiesOnly yes',
      '  StrictHostKeyChecking no',
      '  UserKnownHostsFile /dev/null',
      '  BatchMode yes',
      `  IdentityFile ${client.keyFile}`,
      'Host gw',
      '  HostName 127.0.0.1',
      `  Port ${port}`,
      `  User ${code}`,
      ...hosts(file),
      '',
    ].join('\n'),
  );
  return file;
}
