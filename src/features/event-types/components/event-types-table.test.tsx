// The event-types table as it mounts: its first rows without a layout of the page inside React's
// commit, and the window of rows that the scroll box's reported size holds.
import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prepareEventTypes } from '../filter-event-types';
import { EventTypesTable } from './event-types-table';

const ROWS = prepareEventTypes(
  Array.from({ length: 10_000 }, (_, index) => ({
    code: index,
    value: `Event ${index}`,
    objectTypeName: 'Purpose',
    moduleName: 'Consent',
  })),
);

/** The browser's ResizeObserver as far as the table uses it: report a size when told to. */
class FakeResizeObserver {
  static observers: FakeResizeObserver[] = [];
  readonly observed: Element[] = [];
  constructor(private readonly callback: ResizeObserverCallback) {
    FakeResizeObserver.observers.push(this);
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  unobserve() {}
  disconnect() {
    this.observed.length = 0;
  }
  /** What the browser does after the frame's layout: report the observed boxes' sizes. */
  report() {
    this.callback([], this as unknown as ResizeObserver);
  }
}

const LAYOUT_PROPERTIES = ['clientHeight', 'clientWidth', 'scrollHeight', 'scrollTop'] as const;

/** The scroll box's size as a browser would lay it out; what each read of it asked. */
let boxHeight = 500;
const layoutReads: string[] = [];

beforeEach(() => {
  FakeResizeObserver.observers = [];
  layoutReads.length = 0;
  boxHeight = 500;
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  // jsdom lays nothing out; a read of these on the scroll box is what makes a browser lay the
  // page out at once when it happens inside a script. Own properties of HTMLElement.prototype,
  // removed after each test, which brings back jsdom's.
  for (const property of LAYOUT_PROPERTIES) {
    Object.defineProperty(HTMLElement.prototype, property, {
      configurable: true,
      get(this: HTMLElement) {
        if (!this.classList.contains('event-types-scroll')) return 0;
        layoutReads.push(property);
        return property === 'clientHeight' ? boxHeight : property === 'clientWidth' ? 1000 : 0;
      },
    });
  }
  Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
    configurable: true,
    value(this: HTMLElement) {
      if (this.classList.contains('event-types-scroll')) layoutReads.push('scrollTo');
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  for (const property of [...LAYOUT_PROPERTIES, 'scrollTo']) {
    Reflect.deleteProperty(HTMLElement.prototype, property);
  }
});

function renderTable() {
  render(<EventTypesTable rows={ROWS} sort={null} onSortChange={() => {}} />);
  const table = screen.getByRole('table', { name: 'Event types' });
  return { dataRows: () => within(table).getAllByRole('row').slice(1) };
}

function reportSizes() {
  act(() => {
    for (const observer of FakeResizeObserver.observers) observer.report();
  });
}

describe('EventTypesTable as it mounts', () => {
  it('draws its first rows without asking the browser for the layout of the page', () => {
    const { dataRows } = renderTable();

    expect(dataRows().length).toBeGreaterThan(12);
    expect(screen.getByRole('cell', { name: 'Event 0' })).toBeInTheDocument();
    expect(layoutReads).toEqual([]);
  });

  it('draws the rows that the scroll box holds once the browser reports its size', () => {
    const { dataRows } = renderTable();
    const before = dataRows().length;

    // A tall window: 1,200 px hold 30 rows of 40 px, more than the first guess of the size.
    boxHeight = 1200;
    reportSizes();

    expect(dataRows().length).toBeGreaterThan(before);
    expect(screen.getByRole('cell', { name: 'Event 29' })).toBeInTheDocument();
  });
});
