/** Test set-up for the console: jest-dom matchers, browser APIs jsdom lacks, English i18n. */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { initI18n } from '../app/i18n';

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// antd measures scrollbars through getComputedStyle with pseudo-elements, which jsdom rejects.
const originalGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element, pseudo?: string | null) =>
  originalGetComputedStyle(element, pseudo ? undefined : pseudo);

// antd's CSS-in-JS styles go to a detached element (see render.tsx): jsdom matches every rule
// of every sheet on each getComputedStyle, which the accessible-name code of getByRole calls
// for every node, and antd's thousands of rules made the suite ten times slower. These few
// rules keep what queries depend on: icons are inline-flex (so an icon's label and the text
// read as "plus Add"), and antd's hidden popups stay hidden.
const antdEssentials = document.createElement('style');
antdEssentials.textContent = `
  .anticon, .ant-btn-icon { display: inline-flex; }
  .ant-tabs-tabpane-hidden, .ant-select-dropdown-hidden, .ant-dropdown-hidden,
  .ant-popover-hidden, .ant-tooltip-hidden, .ant-picker-dropdown-hidden { display: none; }
`;
document.head.appendChild(antdEssentials);

// antd renders slowly in jsdom; a debounced probe plus a reply can take seconds there.
configure({ asyncUtilTimeout: 8000 });

initI18n('en_US');

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.cookie.split(';').forEach((part) => {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
