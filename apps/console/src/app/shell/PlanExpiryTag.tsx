import type { ReactNode } from 'react';
import { Tag, Tooltip } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@portcullis/contract';
import { formatEpoch } from '../../shared/time/format';
import { planExpiry } from './plan';

export interface PlanExpiryTagProps {
  plan: Plan | null;
  /** For tests: the current time in ms. */
  nowMs?: number;
}

/** The plan's name and expiry in the header; flagged when PLAN_EXPIRY_WARN_DAYS or fewer remain. */
export function PlanExpiryTag({ plan, nowMs }: PlanExpiryTagProps): ReactNode {
  const { t } = useTranslation();
  const expiry = planExpiry(plan, nowMs);
  const planName = plan ? t(`shell.plan.name.${plan.name}`) : t('shell.plan.noPlan');
  if (expiry.kind === 'none') {
    return (
      <Tag icon={<ClockCircleOutlined />} data-testid="plan-expiry">
        {t('shell.plan.expiryNone', { plan: planName })}
      </Tag>
    );
  }
  const date = formatEpoch(expiry.expire).slice(0, 10);
  const text = expiry.expired
    ? t('shell.plan.expired', { plan: planName, date })
    : t('shell.plan.expires', { plan: planName, date, count: expiry.daysLeft });
  return (
    <Tooltip title={expiry.warn ? t('shell.plan.warnTip') : formatEpoch(expiry.expire)}>
      <Tag
        icon={<ClockCircleOutlined />}
        color={expiry.expired ? 'error' : expiry.warn ? 'warning' : 'default'}
        data-testid="plan-expiry"
        data-warn={expiry.warn ? 'true' : 'false'}
      >
        {text}
      </Tag>
    </Tooltip>
  );
}
