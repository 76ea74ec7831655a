import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { PANEL_SWAP_DELAY_MS } from '@portcullis/contract';
import { PanelProvider } from './PanelProvider';
import { usePanel } from './panel-context';

function Probe() {
  const { activeKey, open, close } = usePanel();
  return (
    <div>
      <output aria-label="active">{activeKey ?? 'none'}</output>
      <button onClick={() => open('a')}>open a</button>
      <button onClick={() => open('b')}>open b</button>
      <button onClick={() => close('a')}>close a</button>
      <button onClick={() => close()}>close any</button>
    </div>
  );
}

const active = () => screen.getByRole('status', { name: 'active' }).textContent;

describe('right-hand panels', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens the first panel at once', () => {
    render(
      <PanelProvider>
        <Probe />
      </PanelProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'open a' }));
    expect(active()).toBe('a');
  });

  it(`swaps: the current panel closes, the next opens ${PANEL_SWAP_DELAY_MS} ms later`, () => {
    render(
      <PanelProvider>
        <Probe />
      </PanelProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'open a' }));
    fireEvent.click(screen.getByRole('button', { name: 'open b' }));
    expect(active()).toBe('none');
    act(() => vi.advanceTimersByTime(PANEL_SWAP_DELAY_MS - 1));
    expect(active()).toBe('none');
    act(() => vi.advanceTimersByTime(1));
    expect(active()).toBe('b');
  });

  it('reopening the open panel changes nothing', () => {
    render(
      <PanelProvider>
        <Probe />
      </PanelProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'open a' }));
    fireEvent.click(screen.getByRole('button', { name: 'open a' }));
    expect(active()).toBe('a');
  });

  it('closing during a swap cancels the pending panel', () => {
    render(
      <PanelProvider>
        <Probe />
      </PanelProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'open a' }));
    fireEvent.click(screen.getByRole('button', { name: 'open b' }));
    fireEvent.click(screen.getByRole('button', { name: 'close any' }));
    act(() => vi.advanceTimersByTime(PANEL_SWAP_DELAY_MS * 2));
    expect(active()).toBe('none');
  });

  it("a panel's own close does not close another panel", () => {
    render(
      <PanelProvider>
        <Probe />
      </PanelProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'open b' }));
    fireEvent.click(screen.getByRole('button', { name: 'close a' }));
    expect(active()).toBe('b');
  });

  it('closes when the route changes', () => {
    const { rerender } = render(
      <PanelProvider resetKey="/one">
        <Probe />
      </PanelProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'open a' }));
    rerender(
      <PanelProvider resetKey="/two">
        <Probe />
      </PanelProvider>,
    );
    expect(active()).toBe('none');
  });
});
