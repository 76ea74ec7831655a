import { useState, type ReactNode } from 'react';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { QUOTA_REMINDER_SILENCE_DAYS, type Plan } from '@portcullis/contract';
import { useSummaryQuery } from '../../shared/api/summary';
import { isQuotaReminderSilenced, quotaOverages, silenceQuotaReminder } from './plan';

export interface QuotaReminderProps {
  /** The account's plan, used when the summary has none. */
  plan: Plan | null;
}

/**
 * Warns when accounts, clusters or resources exceed the plan; a Trial gets a softer note.
 * 'Do not remind me for 7 days' silences it in this browser.
 */
export function QuotaReminder({ plan }: QuotaReminderProps): ReactNode {
  const { t } = useTranslation();
  const summary = useSummaryQuery();
  const [silenced, setSilenced] = useState(() => isQuotaReminderSilenced());
  if (silenced || !summary.data) return null;
  const currentPlan = summary.data.current_plan ?? plan;
  const overages = quotaOverages(summary.data, currentPlan);
  if (!currentPlan || overages.length === 0) return null;

  const trial = currentPlan.name === 'Trial';
  const planName = t(`shell.plan.name.${currentPlan.name}`);
  const lines = overages.map((o) =>
    t(`shell.quota.line.${o.kind}`, { used: o.used, limit: o.limit }),
  );
  return (
    <Alert
      className="pc-shell__notice"
      type={trial ? 'info' : 'warning'}
      showIcon
      role="alert"
      title={t(trial ? 'shell.quota.trialTitle' : 'shell.quota.title', { plan: planName })}
      description={
        <>
          <ul className="pc-shell__quota-lines">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {t(trial ? 'shell.quota.trialAdvice' : 'shell.quota.advice')}
        </>
      }
      action={
        <Button
          size="small"
          onClick={() => {
            silenceQuotaReminder();
            setSilenced(true);
          }}
        >
          {t('shell.quota.silence', { count: QUOTA_REMINDER_SILENCE_DAYS })}
        </Button>
      }
    />
  );
}
