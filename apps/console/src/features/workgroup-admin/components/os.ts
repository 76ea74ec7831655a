import type { TFunction } from 'i18next';

const OS_KEYS: Record<string, string> = {
  linux: 'workgroup-admin.os.linux',
  win32: 'workgroup-admin.os.win32',
  mysql: 'workgroup-admin.os.mysql',
  postgresql: 'workgroup-admin.os.postgresql',
  mssql: 'workgroup-admin.os.mssql',
};

/** A resource's OS or database type as the tables show it; anything unknown as it came. */
export function osLabel(os: string, t: TFunction): string {
  const key = OS_KEYS[os];
  return key ? t(key) : os;
}
