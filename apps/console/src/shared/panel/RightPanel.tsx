import type { ReactNode } from 'react';
import { Drawer } from 'antd';
import { usePanel } from './panel-context';

export interface RightPanelProps {
  panelKey: string;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Width in pixels. */
  width?: number;
  /** Called after the panel has finished closing (reset its form here). */
  onAfterClose?: () => void;
}

/** A right-hand panel that is open while its key is the active one (see PanelProvider). */
export function RightPanel({
  panelKey,
  title,
  children,
  footer,
  width = 480,
  onAfterClose,
}: RightPanelProps): ReactNode {
  const { activeKey, close } = usePanel();
  return (
    <Drawer
      open={activeKey === panelKey}
      title={title}
      placement="right"
      size={width}
      mask={false}
      footer={footer}
      destroyOnHidden
      onClose={() => close(panelKey)}
      afterOpenChange={(visible) => {
        if (!visible) onAfterClose?.();
      }}
    >
      {children}
    </Drawer>
  );
}
