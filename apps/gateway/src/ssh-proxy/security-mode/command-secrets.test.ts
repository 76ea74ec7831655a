/** Secrets typed as command arguments, masked in an alarm's command; everything else as typed. */
import { describe, expect, it } from 'vitest';
import { scrubCommandSecrets as scrub } from './command-secrets';

describe('scrubCommandSecrets', () => {
  it("masks the MySQL family's passwords: -p<value>, --password=<value>, --password <value>", () => {
    expect(scrub('mysql -uroot -pS3cret -h db orders')).toBe(
      'mysql -uroot -p******** -h db orders',
    );
    expect(scrub('mysql --password=S3cret')).toBe('mysql --password=********');
    expect(scrub('mysql --password S3cret -h db')).toBe('mysql --password ******** -h db');
    expect(scrub('mysql --pass=S3cret')).toBe('mysql --pass=********');
    expect(scrub('/usr/bin/mysqldump -pS3cret db > dump.sql')).toBe(
      '/usr/bin/mysqldump -p******** db > dump.sql',
    );
    expect(scrub('mariadb-admin -pS3cret status')).toBe('mariadb-admin -p******** status');
    expect(scrub('sudo mysqladmin -u root -pS3cret status')).toBe(
      'sudo mysqladmin -u root -p******** status',
    );
    expect(scrub("mysql -p'my secret' -e 'select 1'")).toBe("mysql -p******** -e 'select 1'");
  });

  it('masks sshpass -p, in either form, and keeps the port of the command it runs', () => {
    expect(scrub('sshpass -p secret ssh -p 2222 me@host')).toBe(
      'sshpass -p ******** ssh -p 2222 me@host',
    );
    expect(scrub('sshpass -psecret scp -P 22 f host:')).toBe(
      'sshpass -p******** scp -P 22 f host:',
    );
    expect(scrub('sshpass -f pwfile ssh -p 22 host')).toBe('sshpass -f pwfile ssh -p 22 host');
  });

  it('masks NAME=value when the name ends with PASSWORD, PASSWD, PWD, PASS, TOKEN or SECRET', () => {
    expect(scrub('PGPASSWORD=secret psql -h db')).toBe('PGPASSWORD=******** psql -h db');
    expect(scrub('MYSQL_PWD=secret mysql -u root')).toBe('MYSQL_PWD=******** mysql -u root');
    expect(scrub('export api_token=abc; env DB_PASS="a b" run')).toBe(
      'export api_token=********; env DB_PASS=******** run',
    );
    expect(scrub('docker run -e APP_SECRET=xyz -e MY_PASSWD=q img')).toBe(
      'docker run -e APP_SECRET=******** -e MY_PASSWD=******** img',
    );
    expect(scrub('PWD=/tmp OLDPWD=/ HOME=/root ls')).toBe('PWD=/tmp OLDPWD=/ HOME=/root ls');
  });

  it("masks curl's user password after the colon, and any URL's password", () => {
    expect(scrub('curl -u user:pass https://api')).toBe('curl -u user:******** https://api');
    expect(scrub('curl --user user:pass https://api')).toBe(
      'curl --user user:******** https://api',
    );
    expect(scrub('curl --user=user:pass -uother:pw x')).toBe(
      'curl --user=user:******** -uother:******** x',
    );
    expect(scrub('curl -u user https://api')).toBe('curl -u user https://api');
    expect(scrub('git clone https://bot:ghp_abc@github.com/x/y.git')).toBe(
      'git clone https://bot:********@github.com/x/y.git',
    );
    expect(scrub('psql "postgresql://app:pw@db:5432/orders"')).toBe(
      'psql "postgresql://app:********@db:5432/orders"',
    );
  });

  it('reads a quoted command and the commands of a list or pipeline', () => {
    expect(scrub('ssh host "mysql -pS3cret -e \'show databases\'"')).toBe(
      'ssh host "mysql -p******** -e \'show databases\'"',
    );
    expect(scrub("bash -c 'PGPASSWORD=x psql'")).toBe("bash -c 'PGPASSWORD=******** psql'");
    expect(scrub('cd /tmp && mysql -pA; ssh -p 2222 h | grep -p x')).toBe(
      'cd /tmp && mysql -p********; ssh -p 2222 h | grep -p x',
    );
  });

  it('takes linear time on long, odd lines (a pasted line may raise an alarm)', () => {
    for (const line of [
      'a'.repeat(60_000) + '://',
      '"\\'.repeat(30_000),
      '"a '.repeat(20_000),
      'x://' + 'a:'.repeat(30_000),
      'mysql ' + '-pX '.repeat(15_000),
    ]) {
      const started = performance.now();
      scrub(line);
      expect(performance.now() - started, line.slice(0, 12)).toBeLessThan(1000);
    }
  });

  it('leaves what is not a password as typed', () => {
    for (const command of [
      'ssh -p 2222 host',
      'scp -P 22 file host:/tmp',
      'mysql -p',
      'mysql -u root -p orders',
      'grep -p x file',
      'echo pass | sudo -S rm -rf /tmp/x',
      'curl https://example.com/a:b@c',
      'rm -rf /',
      '',
    ]) {
      expect(scrub(command)).toBe(command);
    }
  });
});
