/**
 * The cluster forms' rules (spec 2 §5), built from the contract's limits and patterns, with the
 * spec's exact texts (translated under clusters.rules.*).
 */
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import {
  CLUSTER_NAME_MAX,
  DATABASE_NAMES_PATTERN,
  HOST_PATTERN,
  INNER_IP_PATTERN,
  ScanCidrSchema,
  TUNNEL_MAX_SECONDS,
  TUNNEL_MIN_SECONDS,
  type ResourceOs,
} from '@portcullis/contract';
import { requiredRule } from '../../shared/form/rules';

export const TIME_UNITS = { minute: 60, hour: 3600, day: 86_400 } as const;
export type TimeUnit = keyof typeof TIME_UNITS;

/** Default port and login user when the OS (or database type) is picked (spec 2 §5, §9). */
export const OS_DEFAULTS: Record<ResourceOs, { port: number; username?: string }> = {
  linux: { port: 22, username: 'root' },
  win32: { port: 3389, username: 'administrator' },
  mysql: { port: 3306 },
  postgresql: { port: 5432 },
  mssql: { port: 1433 },
};

/** Seconds of a number and unit. */
export function toSeconds(value: number, unit: TimeUnit): number {
  return value * TIME_UNITS[unit];
}

/** The largest unit that divides `seconds` evenly, for showing a stored validity. */
export function fromSeconds(seconds: number): { value: number; unit: TimeUnit } {
  if (seconds > 0 && seconds % TIME_UNITS.day === 0) {
    return { value: seconds / TIME_UNITS.day, unit: 'day' };
  }
  if (seconds > 0 && seconds % TIME_UNITS.hour === 0) {
    return { value: seconds / TIME_UNITS.hour, unit: 'hour' };
  }
  return { value: Math.round(seconds / TIME_UNITS.minute), unit: 'minute' };
}

export function clusterNameRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('clusters.rules.nameRequired')),
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value === 'string' && value.trim().length > CLUSTER_NAME_MAX) {
          throw new Error(t('clusters.rules.nameMax', { max: CLUSTER_NAME_MAX }));
        }
      },
    },
  ];
}

/**
 * Maximum code validity: a number is required; with the unit it must come to 1800 s - 1 year,
 * or be 0 for no limit. `unitOf` reads the unit chosen next to the number.
 */
export function validityRules(t: TFunction, unitOf: () => TimeUnit): FormRule[] {
  return [
    { required: true, message: t('clusters.rules.validityRequired') },
    {
      validator: async (_rule, value: unknown) => {
        if (value === null || value === undefined || value === '') return;
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0) throw new Error(t('clusters.rules.validityRequired'));
        if (n === 0) return;
        const seconds = toSeconds(n, unitOf());
        if (seconds < TUNNEL_MIN_SECONDS) throw new Error(t('clusters.rules.validityMin'));
        if (seconds > TUNNEL_MAX_SECONDS) throw new Error(t('clusters.rules.validityMax'));
      },
    },
  ];
}

/** A port typed into a port-mapping row, clamped to a whole number in 1-65535. */
export function clampPort(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Math.trunc(Number(value));
  if (!Number.isFinite(n)) return null;
  return Math.min(65535, Math.max(1, n));
}

export interface PortRow {
  ip_name?: string | undefined;
  origin_port?: number | null | undefined;
  map_port?: number | null | undefined;
}

/** The mapped ports of the rows must differ (the server checks the same). */
export function portMappingRules(
  t: TFunction,
): { validator: (rule: unknown, rows: PortRow[] | undefined) => Promise<void> }[] {
  return [
    {
      validator: async (_rule, rows) => {
        const ports = (rows ?? []).map((r) => r?.map_port).filter((p) => p != null);
        if (new Set(ports).size !== ports.length) {
          throw new Error(t('clusters.rules.portDuplicate'));
        }
      },
    },
  ];
}

export function portRules(t: TFunction): FormRule[] {
  const message = t('clusters.rules.port');
  return [
    { required: true, message },
    {
      validator: async (_rule, value: unknown) => {
        if (value === null || value === undefined || value === '') return;
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(message);
      },
    },
  ];
}

export function cidrRules(t: TFunction): FormRule[] {
  const message = t('clusters.rules.cidr', { ip: '192.168.1.0' });
  return [
    requiredRule(message),
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return;
        if (!ScanCidrSchema.safeParse(value).success) throw new Error(message);
      },
    },
  ];
}

export function resourceNameRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('clusters.rules.resourceName')),
    { max: 100, message: t('clusters.rules.textMax', { max: 100 }) },
  ];
}

export function innerIpRules(t: TFunction): FormRule[] {
  const message = t('clusters.rules.innerIp');
  return [
    requiredRule(message),
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return;
        if (!INNER_IP_PATTERN.test(value.trim())) throw new Error(message);
      },
    },
  ];
}

export function hostRules(t: TFunction): FormRule[] {
  const message = t('clusters.rules.host');
  return [
    requiredRule(message),
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return;
        if (!HOST_PATTERN.test(value.trim())) throw new Error(message);
      },
    },
  ];
}

/** Login users separated by ';'; at least one that is not blank. */
export function splitUsernames(value: string | undefined): string[] {
  const seen = new Set<string>();
  for (const part of (value ?? '').split(';')) {
    const name = part.trim();
    if (name) seen.add(name);
  }
  return [...seen];
}

export function usernamesRules(t: TFunction): FormRule[] {
  const message = t('clusters.rules.username');
  return [
    requiredRule(message),
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return;
        if (splitUsernames(value).length === 0) throw new Error(message);
      },
    },
  ];
}

export function databaseNamesRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('clusters.rules.databaseRequired')),
    {
      validator: async (_rule, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return;
        if (!DATABASE_NAMES_PATTERN.test(value.trim())) {
          throw new Error(t('clusters.rules.databaseFormat'));
        }
      },
    },
  ];
}

/** Commands typed comma-separated; blanks dropped and duplicates skipped (spec 2 §5). */
export function splitCommands(value: string | undefined): string[] {
  const seen = new Set<string>();
  for (const part of (value ?? '').split(/[,，]/)) {
    const command = part.trim();
    if (command) seen.add(command);
  }
  return [...seen];
}
