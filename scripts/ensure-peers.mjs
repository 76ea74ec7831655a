#!/usr/bin/env node
// Makes sure what the tests need is on this machine and running: Debian packages (Chromium,
// OpenSSH server, CJK fonts for screenshots) when we are root and they are missing, and the
// PostgreSQL, MariaDB and Redis servers on loopback (started when installed but not running).
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

const isRoot = process.getuid?.() === 0;

function log(message) {
  process.stdout.write(`[peers] ${message}\n`);
}

function sh(command) {
  return spawnSync('bash', ['-c', command], { stdio: 'inherit' }).status === 0;
}

function portOpen(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitForPort(port, seconds) {
  for (let i = 0; i < seconds * 2; i++) {
    if (await portOpen(port)) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

const PACKAGES = [
  { name: 'chromium', present: () => fs.existsSync('/usr/bin/chromium') },
  { name: 'openssh-server', present: () => fs.existsSync('/usr/sbin/sshd') },
  { name: 'openssh-client', present: () => fs.existsSync('/usr/bin/ssh-keygen') },
  { name: 'fonts-noto-cjk', present: () => fs.existsSync('/usr/share/fonts/opentype/noto') },
  { name: 'postgresql', present: () => fs.existsSync('/etc/postgresql') },
  // The workgroup view test feeds its Ansible inventory to the real ansible-inventory.
  { name: 'ansible-core', present: () => fs.existsSync('/usr/bin/ansible-inventory') },
  // The recording test checks that the stock player reads our .cast files (`asciinema cat`).
  { name: 'asciinema', present: () => fs.existsSync('/usr/bin/asciinema') },
  // The database TLS tests make their CAs and certificates with it (the gateway its own too).
  { name: 'openssl', present: () => fs.existsSync('/usr/bin/openssl') },
];

const missing = PACKAGES.filter((p) => !p.present()).map((p) => p.name);
if (missing.length > 0) {
  if (isRoot && fs.existsSync('/usr/bin/apt-get')) {
    log(`installing ${missing.join(' ')}`);
    sh(
      `export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq ${missing.join(' ')} >/dev/null`,
    );
  } else {
    log(`missing Debian packages (install them as root): ${missing.join(' ')}`);
  }
}

// The commands the machine notes give for these services, used only when one is down.
const SERVICES = [
  {
    name: 'PostgreSQL',
    port: 5432,
    start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | head -n1) main start',
  },
  {
    name: 'MariaDB',
    port: 3306,
    start: 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd',
    optional: true,
  },
  {
    name: 'Redis',
    port: 6379,
    start:
      'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /tmp --logfile /tmp/redis-ci.log',
    optional: true,
  },
];

let failed = false;
for (const service of SERVICES) {
  if (await portOpen(service.port)) continue;
  log(`${service.name} is not running on 127.0.0.1:${service.port}; starting it`);
  sh(service.start);
  if (!(await waitForPort(service.port, 30))) {
    log(`${service.name} did not start`);
    if (!service.optional) failed = true;
  }
}

// The tests connect to PostgreSQL as postgres over TCP with trust auth; check that works.
try {
  execSync(`psql -h 127.0.0.1 -U postgres -d postgres -Atc 'select 1'`, { stdio: 'pipe' });
} catch {
  log('cannot connect to PostgreSQL at 127.0.0.1:5432 as postgres (trust auth is expected)');
  failed = true;
}

if (failed) process.exit(1);
log('ready');
