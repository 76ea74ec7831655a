import { useState, type ReactNode } from 'react';
import { Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SearchField } from '../api';

export interface FieldSearchProps {
  /** Called with the chosen field and the text when the search runs. */
  onSearch: (field: SearchField, text: string) => void;
  /** What the name field searches, for the placeholder ('workgroup' or 'resource'). */
  subject: 'workgroup' | 'resource';
}

/**
 * A search by a selectable field: name (q_name, the default) or address (q_ip). Changing the
 * field re-runs a search already typed, so the list never shows one field's results under the
 * other's label.
 */
export function FieldSearch({ onSearch, subject }: FieldSearchProps): ReactNode {
  const { t } = useTranslation();
  const [field, setField] = useState<SearchField>('q_name');
  const [text, setText] = useState('');
  return (
    <Space.Compact>
      <Select<SearchField>
        aria-label={t('workgroup-admin.search.field')}
        value={field}
        style={{ width: 120 }}
        onChange={(value) => {
          setField(value);
          if (text.trim()) onSearch(value, text);
        }}
        options={[
          { value: 'q_name', label: t('workgroup-admin.search.byName') },
          { value: 'q_ip', label: t('workgroup-admin.search.byIp') },
        ]}
      />
      <Input.Search
        allowClear
        aria-label={t('workgroup-admin.search.label')}
        placeholder={
          field === 'q_ip'
            ? t('workgroup-admin.search.ipPlaceholder')
            : subject === 'workgroup'
              ? t('workgroup-admin.search.workgroupName')
              : t('workgroup-admin.search.resourceName')
        }
        className="pc-toolbar__search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onSearch={(value) => onSearch(field, value)}
        enterButton={t('common.action.search')}
      />
    </Space.Compact>
  );
}
