/**
 * The right-hand panel mechanism (spec 1 §2.4): at most one panel is open; opening another
 * closes the current one and shows the new one after PANEL_SWAP_DELAY_MS (300 ms), the time the
 * closing panel takes to slide out. Pages declare panels with <RightPanel panelKey=…> and open
 * them with usePanel().open(key).
 *
 * A panel belongs to the route (resetKey) it was opened on: after navigation it is no longer
 * open, while a panel the new page opens as it mounts (?changePwd=1) is.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { PANEL_SWAP_DELAY_MS } from '@portcullis/contract';
import { PanelContext, type PanelControls } from './panel-context';

export interface PanelProviderProps {
  children: ReactNode;
  /** The current route: a panel opened under another value is closed. */
  resetKey?: string;
}

interface OpenPanel {
  key: string | null;
  scope: string | undefined;
}

export function PanelProvider({ children, resetKey }: PanelProviderProps): ReactNode {
  const scopeRef = useRef(resetKey);
  // Updated during render so that effects of the page rendered with it open in its scope.
  scopeRef.current = resetKey;
  const [state, setState] = useState<OpenPanel>({ key: null, scope: resetKey });
  const stateRef = useRef<OpenPanel>(state);
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null);

  const current = useCallback(
    (): string | null =>
      stateRef.current.scope === scopeRef.current ? stateRef.current.key : null,
    [],
  );

  const show = useCallback((key: string | null) => {
    const next = { key, scope: scopeRef.current };
    stateRef.current = next;
    setState(next);
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
      const active = current();
      if (active === key) return;
      if (active === null) {
        show(key);
        return;
      }
      show(null);
      timerRef.current = setTimeout(() => {
        timerRef.current = null;
        show(key);
      }, PANEL_SWAP_DELAY_MS);
    },
    [cancelPending, current, show],
  );

  const close = useCallback(
    (key?: string) => {
      if (key !== undefined && current() !== key) return;
      cancelPending();
      show(null);
    },
    [cancelPending, current, show],
  );

  // A swap that was pending on the previous route does not land on this one.
  const lastScope = useRef(resetKey);
  useEffect(() => {
    if (lastScope.current === resetKey) return;
    lastScope.current = resetKey;
    if (timerRef.current !== null) {
      cancelPending();
      show(null);
    }
  }, [resetKey, cancelPending, show]);

  useEffect(() => cancelPending, [cancelPending]);

  const activeKey = state.scope === resetKey ? state.key : null;
  const value = useMemo<PanelControls>(
    () => ({ activeKey, open, close }),
    [activeKey, open, close],
  );
  return <PanelContext.Provider value={value}>{children}</PanelContext.Provider>;
}
