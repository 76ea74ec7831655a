/** The applied filters as closable tags; closing one drops that filter. */
import type { ReactNode } from 'react';
import { Space, Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ActionLogFilters } from '../filters';

type TagKey =
  | 'keywords'
  | 'preset'
  | 'resource'
  | 'way'
  | 'account_name'
  | 'ip'
  | 'resource_name'
  | 'unsafe_mode';

/** The applied filters as [key, value] pairs, in the order the tags show them. */
export function filterTags(filters: ActionLogFilters, t: TFunction): [TagKey, string][] {
  const tags: [TagKey, string][] = [];
  if (filters.keywords.trim()) tags.push(['keywords', filters.keywords.trim()]);
  if (filters.preset !== 'unlimited' && (filters.preset !== 'range' || filters.range)) {
    const label =
      filters.preset === 'range' && filters.range
        ? `${filters.range[0].format('YYYY-MM-DD')} ~ ${filters.range[1]?.format('YYYY-MM-DD') ?? ''}`
        : t(`action-log.preset.${filters.preset}`);
    tags.push(['preset', label]);
  }
  if (filters.resource) tags.push(['resource', filters.resource.name]);
  if (filters.way) tags.push(['way', filters.way]);
  if (filters.account_name) tags.push(['account_name', filters.account_name]);
  if (filters.ip) tags.push(['ip', filters.ip]);
  if (filters.resource_name) tags.push(['resource_name', filters.resource_name]);
  if (filters.unsafe_mode !== undefined)
    tags.push([
      'unsafe_mode',
      t(filters.unsafe_mode ? 'action-log.unsafe.yes' : 'action-log.unsafe.no'),
    ]);
  return tags;
}

/** A tag's text: `name: value`. */
export function tagLabel([key, value]: [TagKey, string], t: TFunction): string {
  return t('action-log.tag', { name: t(`action-log.tagName.${key}`), value });
}

export function SearchTags({
  filters,
  onChange,
}: {
  filters: ActionLogFilters;
  onChange: (next: ActionLogFilters) => void;
}): ReactNode {
  const { t } = useTranslation();
  const tags = filterTags(filters, t);
  if (!tags.length) return null;

  const drop = (key: TagKey): ActionLogFilters => {
    if (key === 'keywords') return { ...filters, keywords: '' };
    if (key === 'preset') return { ...filters, preset: 'unlimited', range: null };
    return { ...filters, [key]: undefined };
  };
  return (
    <Space wrap style={{ margin: '12px 0' }}>
      {tags.map(([key, value]) => (
        <Tag key={key} closable onClose={() => onChange(drop(key))}>
          {tagLabel([key, value], t)}
        </Tag>
      ))}
    </Space>
  );
}
