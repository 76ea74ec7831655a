import { createContext, useContext } from 'react';

export interface PanelControls {
  /** The key of the panel on screen, or null. */
  activeKey: string | null;
  /**
   * Shows the panel `key`. With another panel on screen, that one closes first and `key`
   * appears PANEL_SWAP_DELAY_MS later, so the two never overlap.
   */
  open: (key: string) => void;
  /** Closes `key` (or whatever is open when no key is given). */
  close: (key?: string) => void;
}

export const PanelContext = createContext<PanelControls | null>(null);

/** The right-hand panel controls of the nearest {@link PanelProvider}. */
export function usePanel(): PanelControls {
  const value = useContext(PanelContext);
  if (!value) throw new Error('usePanel must be used inside a PanelProvider');
  return value;
}
