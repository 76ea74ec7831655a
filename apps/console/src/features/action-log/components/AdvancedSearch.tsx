/**
 * The advanced search panel (spec 1 §2.9): a time preset (unlimited, one day, seven days, one
 * month) or a date range, way, account, IP, resource name and unsafe mode. Applies on Search;
 * Reset clears the panel's fields and keeps the keywords.
 */
import { useState, type ReactNode } from 'react';
import { Button, Card, DatePicker, Form, Input, Radio, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { TIME_PRESETS, WAYS, type ActionLogFilters } from '../filters';

export interface AdvancedSearchProps {
  value: ActionLogFilters;
  onSearch: (next: ActionLogFilters) => void;
  onReset: () => void;
}

export function AdvancedSearch({ value, onSearch, onReset }: AdvancedSearchProps): ReactNode {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ActionLogFilters>(value);
  const set = (patch: Partial<ActionLogFilters>) => setDraft((d) => ({ ...d, ...patch }));
  const text = (v: string) => (v.trim() ? v : undefined);
  return (
    <Card size="small" title={t('action-log.advanced.title')} className="action-log-advanced">
      <Form layout="vertical" onFinish={() => onSearch(draft)}>
        <Form.Item label={t('action-log.advanced.time')}>
          <Space wrap>
            <Radio.Group
              value={draft.preset}
              onChange={(e) => set({ preset: e.target.value as ActionLogFilters['preset'] })}
              optionType="button"
              options={TIME_PRESETS.map((p) => ({ value: p, label: t(`action-log.preset.${p}`) }))}
            />
            {draft.preset === 'range' && (
              <DatePicker.RangePicker
                aria-label={t('action-log.advanced.range')}
                value={draft.range ?? null}
                onChange={(range) =>
                  set({ range: range?.[0] && range[1] ? [range[0], range[1]] : null })
                }
              />
            )}
          </Space>
        </Form.Item>
        <Space wrap align="start">
          <Form.Item label={t('action-log.advanced.way')}>
            <Select
              aria-label={t('action-log.advanced.way')}
              allowClear
              style={{ width: 160 }}
              value={draft.way}
              onChange={(way?: string) => set({ way })}
              options={WAYS.map((w) => ({ value: w, label: w }))}
            />
          </Form.Item>
          <Form.Item label={t('action-log.advanced.account')}>
            <Input
              aria-label={t('action-log.advanced.account')}
              value={draft.account_name ?? ''}
              onChange={(e) => set({ account_name: text(e.target.value) })}
            />
          </Form.Item>
          <Form.Item label={t('action-log.advanced.ip')}>
            <Input
              aria-label={t('action-log.advanced.ip')}
              value={draft.ip ?? ''}
              onChange={(e) => set({ ip: text(e.target.value) })}
            />
          </Form.Item>
          <Form.Item label={t('action-log.advanced.resourceName')}>
            <Input
              aria-label={t('action-log.advanced.resourceName')}
              value={draft.resource_name ?? ''}
              onChange={(e) => set({ resource_name: text(e.target.value) })}
            />
          </Form.Item>
          <Form.Item label={t('action-log.advanced.unsafe')}>
            <Select
              aria-label={t('action-log.advanced.unsafe')}
              allowClear
              style={{ width: 140 }}
              value={draft.unsafe_mode}
              onChange={(unsafe_mode?: 0 | 1) => set({ unsafe_mode })}
              options={[
                { value: 1, label: t('action-log.unsafe.yes') },
                { value: 0, label: t('action-log.unsafe.no') },
              ]}
            />
          </Form.Item>
        </Space>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('action-log.advanced.search')}
          </Button>
          <Button onClick={onReset}>{t('action-log.advanced.reset')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
