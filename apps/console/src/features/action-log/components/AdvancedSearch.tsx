/**
 * The advanced search panel (spec 1 §2.9): a time preset (unlimited, one day, seven days, one
 * month) or a date range, resource (one, by id), way, account, IP, resource name (a contains)
 * and unsafe mode. Applies on Search;
 * Reset clears the panel's fields and keeps the keywords. The account and resource-name fields
 * suggest from the name lists of spec 1 §7 (/v1/account/list for the team's log readers, who
 * alone may list members; /resource/all_name) and still take any text: the match is a contains.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { AutoComplete, Button, Card, DatePicker, Form, Input, Radio, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleOf, useCurrentAccountQuery } from '../../../shared/session/session';
import { useAccountNamesQuery, useResourceNamesQuery } from '../api';
import { TIME_PRESETS, WAYS, type ActionLogFilters } from '../filters';

/** Options for an AutoComplete: the names containing the text, case-blind, at most 50. */
function suggest(names: readonly string[] | undefined, text: string | undefined) {
  const needle = (text ?? '').trim().toLowerCase();
  return [...new Set(names ?? [])]
    .filter((n) => n.toLowerCase().includes(needle))
    .slice(0, 50)
    .map((n) => ({ value: n, label: n }));
}

export interface AdvancedSearchProps {
  value: ActionLogFilters;
  onSearch: (next: ActionLogFilters) => void;
  onReset: () => void;
}

export function AdvancedSearch({ value, onSearch, onReset }: AdvancedSearchProps): ReactNode {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ActionLogFilters>(value);
  // The applied filters change outside the panel too (a tag closed, Reset, a keyword search):
  // the fields follow, so that Search does not bring back what was taken away.
  useEffect(() => setDraft(value), [value]);
  const set = (patch: Partial<ActionLogFilters>) => setDraft((d) => ({ ...d, ...patch }));
  const text = (v: string) => (v.trim() ? v : undefined);
  const me = useCurrentAccountQuery().data;
  const accountNames = useAccountNamesQuery(me !== undefined && roleOf(me) !== 0);
  const resourceNames = useResourceNamesQuery();
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
                allowEmpty={[false, true]}
                onChange={(range) => set({ range: range?.[0] ? [range[0], range[1]] : null })}
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
            <AutoComplete
              aria-label={t('action-log.advanced.account')}
              style={{ width: 180 }}
              value={draft.account_name ?? ''}
              options={suggest(accountNames.data, draft.account_name)}
              onChange={(v: string) => set({ account_name: text(v) })}
            />
          </Form.Item>
          <Form.Item label={t('action-log.advanced.ip')}>
            <Input
              aria-label={t('action-log.advanced.ip')}
              value={draft.ip ?? ''}
              onChange={(e) => set({ ip: text(e.target.value) })}
            />
          </Form.Item>
          <Form.Item label={t('action-log.advanced.resource')}>
            <Select
              aria-label={t('action-log.advanced.resource')}
              allowClear
              showSearch
              optionFilterProp="label"
              style={{ width: 180 }}
              value={draft.resource?.id}
              loading={resourceNames.isPending}
              onChange={(id?: number) => {
                const picked = resourceNames.data?.find((r) => r.id === id);
                set({ resource: picked && { id: picked.id, name: picked.name } });
              }}
              options={(resourceNames.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
            />
          </Form.Item>
          <Form.Item label={t('action-log.advanced.resourceName')}>
            <AutoComplete
              aria-label={t('action-log.advanced.resourceName')}
              style={{ width: 180 }}
              value={draft.resource_name ?? ''}
              options={suggest(
                resourceNames.data?.map((r) => r.name),
                draft.resource_name,
              )}
              onChange={(v: string) => set({ resource_name: text(v) })}
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
