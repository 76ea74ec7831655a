/**
 * Form rules of the workgroup panels, from the contract's limits (spec 2 §5): name 2-255 and
 * description up to 140 characters, both counted after trimming as the server does.
 */
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { WORKGROUP_DESC_MAX, WORKGROUP_NAME_MAX, WORKGROUP_NAME_MIN } from '@portcullis/contract';
import { requiredRule } from '../../shared/form/rules';

function trimmedLength(min: number, max: number, message: string): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (typeof value !== 'string' || value.trim() === '') return;
      const length = [...value.trim()].length;
      if (length < min || length > max) throw new Error(message);
    },
  };
}

export function workgroupNameRules(t: TFunction): FormRule[] {
  return [
    requiredRule(t('workgroup-admin.rules.nameRequired')),
    trimmedLength(
      WORKGROUP_NAME_MIN,
      WORKGROUP_NAME_MAX,
      t('workgroup-admin.rules.nameLength', { min: WORKGROUP_NAME_MIN, max: WORKGROUP_NAME_MAX }),
    ),
  ];
}

export function workgroupDescRules(t: TFunction): FormRule[] {
  return [
    trimmedLength(
      0,
      WORKGROUP_DESC_MAX,
      t('workgroup-admin.rules.descMax', { max: WORKGROUP_DESC_MAX }),
    ),
  ];
}
