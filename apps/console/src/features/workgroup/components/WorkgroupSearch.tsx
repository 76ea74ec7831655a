import { useState, type ReactNode } from 'react';
import { Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SearchField } from '../api';

export interface WorkgroupSearchProps {
  field: SearchField;
  text: string;
  /** Accessible name of the text box. */
  label: string;
  onSearch: (field: SearchField, text: string) => void;
}

/** Search by name (q_name) or by IP (q_ip): a field picker and a search box (spec 1 §2.6, §2.7). */
export function WorkgroupSearch({ field, text, label, onSearch }: WorkgroupSearchProps): ReactNode {
  const { t } = useTranslation();
  const [current, setCurrent] = useState<SearchField>(field);
  const [value, setValue] = useState(text);
  return (
    <Space.Compact className="pc-workgroup-search">
      <Select<SearchField>
        aria-label={t('workgroup.search.field')}
        value={current}
        onChange={(next) => {
          setCurrent(next);
          if (value.trim()) onSearch(next, value);
        }}
        options={[
          { value: 'q_name', label: t('workgroup.search.byName') },
          { value: 'q_ip', label: t('workgroup.search.byIp') },
        ]}
        className="pc-workgroup-search__field"
      />
      <Input.Search
        allowClear
        aria-label={label}
        placeholder={t(
          current === 'q_name'
            ? 'workgroup.search.namePlaceholder'
            : 'workgroup.search.ipPlaceholder',
        )}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onSearch={(next) => onSearch(current, next)}
        enterButton={t('common.action.search')}
      />
    </Space.Compact>
  );
}
