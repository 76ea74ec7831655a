import { useTranslation } from 'react-i18next';
import { WorkgroupRole } from '@portcullis/contract';
import type { MemberRole } from '../api';

/** Ordinary member or the workgroup's administrator (spec 2 §6), for selects and radios. */
export function useRoleOptions(): { value: MemberRole; label: string }[] {
  const { t } = useTranslation();
  return [
    { value: WorkgroupRole.Ordinary, label: t('workgroup-admin.role.ordinary') },
    { value: WorkgroupRole.Admin, label: t('workgroup-admin.role.admin') },
  ];
}
