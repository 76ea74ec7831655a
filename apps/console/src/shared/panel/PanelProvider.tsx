/**
 * The right-hand panel mechanism (spec 1 §2.4): at most one panel is open; opening another
 * closes the current one and shows the new one after PANEL_SWAP_DELAY_MS (300 ms), the time the
 * closing panel takes to slide out. Pages declare panels with <RightPanel panelKey=…> and open
 * them with usePanel().open(key).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { PANEL_SWAP_DELAY_MS } from '@portcullis/contract';
import { PanelContext, type PanelControls } from './panel-context';

export interface PanelProviderProps {
  children: ReactNode;
  /** When this value changes (a new route), any open panel closes. */
  resetKey?: string;
}

export function PanelProvider({ children, resetKey }: PanelProviderProps): ReactNode {
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const activeRef = useRef<string | null>(null);
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null);

  const show = useCallback((key: string | null) => {
    activeRef.current = key;
    setActiveKey(key);
  }, []);

  const cancelPending = useCallback(() => {
    if (timerRef.current !== null) {
      clearTimeout(timerRef.current);
      timerRef.current = null;
    }
  }, []);

  const open = useCallback(
    (key: string) => {
      cancelPending();
      const current = activeRef.current;
      if (current === key) return;
      if (current === null) {
        show(key);
        return;
      }
      show(null);
      timerRef.current = setTimeout(() => {
        timerRef.current = null;
        show(key);
      }, PANEL_SWAP_DELAY_MS);
    },
    [cancelPending, show],
  );

  const close = useCallback(
    (key?: string) => {
      if (key !== undefined && activeRef.current !== key) return;
      cancelPending();
      show(null);
    },
    [cancelPending, show],
  );

  // Children's effects run before this one, so a page that opens a panel on mount keeps it:
  // only a change of resetKey after mount closes the panel.
  const lastResetKey = useRef(resetKey);
  useEffect(() => {
    if (lastResetKey.current === resetKey) return;
    lastResetKey.current = resetKey;
    close();
  }, [resetKey, close]);

  useEffect(() => cancelPending, [cancelPending]);

  const value = useMemo<PanelControls>(
    () => ({ activeKey, open, close }),
    [activeKey, open, close],
  );
  return <PanelContext.Provider value={value}>{children}</PanelContext.Provider>;
}
