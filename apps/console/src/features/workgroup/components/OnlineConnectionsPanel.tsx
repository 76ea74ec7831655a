/**
 * The workgroup detail's online connections panel (spec 1 §2.7): one resource's sessions
 * through this workgroup that the caller may see (their own; every member's as the workgroup's
 * administrator or a team administrator), with disconnect. A cut refreshes the rows' counts.
 */
import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ProjectResource, Workgroup } from '@portcullis/contract';
import { OnlineConnectionsTable } from '../../../shared/online/OnlineConnectionsTable';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { workgroupKeys } from '../api';

export const ONLINE_PANEL = 'panel/workgroup/online';

export interface OnlineConnectionsPanelProps {
  resource: ProjectResource | null;
  workgroup: Workgroup;
}

export function OnlineConnectionsPanel({
  resource,
  workgroup,
}: OnlineConnectionsPanelProps): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  const queryClient = useQueryClient();
  const open = activeKey === ONLINE_PANEL && resource !== null;
  return (
    <RightPanel
      panelKey={ONLINE_PANEL}
      title={t('online.panel.title', { name: resource?.name ?? '' })}
      width={720}
    >
      {/* Keyed: another resource's list starts afresh, without this one's ticks or page. */}
      {resource ? (
        <OnlineConnectionsTable
          key={resource.resource_id}
          compact
          enabled={open}
          filter={{ q_project: workgroup.id, q_resource: resource.resource_id }}
          onCut={() =>
            void queryClient.invalidateQueries({ queryKey: workgroupKeys.resources(workgroup.id) })
          }
        />
      ) : null}
    </RightPanel>
  );
}
