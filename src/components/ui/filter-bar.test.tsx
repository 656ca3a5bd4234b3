// The shared filter bar: a change sets one filter and keeps the others, emptying a field or
// choosing "Any" drops that filter (no `?user=` left in the URL), and "Clear filters" shows only
// while a filter is set.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  FilterBar,
  FilterInput,
  FilterSelect,
  type BindFilter,
  type SetFilters,
} from './filter-bar';

interface Filters {
  user?: string;
  period?: string;
}

const PERIODS = [{ value: 'MINUTE', label: 'Minute' }];

function Bar({ filters, onChange }: { filters: Filters; onChange: (next: Filters) => void }) {
  const fields = (set: SetFilters<Filters>, bind: BindFilter<Filters>) => [
    <FilterSelect key="period" label="Period" options={PERIODS} {...bind('period')} />,
    <FilterInput
      key="user"
      label="User"
      value={filters.user ?? ''}
      onChange={(event) => set({ user: event.target.value || undefined })}
    />,
  ];
  return <FilterBar {...{ filters, onChange }} label="Filter things" children={fields} />;
}

describe('FilterBar', () => {
  it('sets one filter and keeps the others', async () => {
    const onChange = vi.fn();
    render(<Bar filters={{ user: 'ad' }} onChange={onChange} />);
    await userEvent.selectOptions(screen.getByLabelText('Period'), 'Minute');
    expect(onChange).toHaveBeenLastCalledWith({ user: 'ad', period: 'MINUTE' });
  });

  it('drops a filter set back to "Any" or emptied', async () => {
    const onChange = vi.fn();
    render(<Bar filters={{ user: 'a', period: 'MINUTE' }} onChange={onChange} />);
    await userEvent.selectOptions(screen.getByLabelText('Period'), 'Any');
    expect(onChange).toHaveBeenLastCalledWith({ user: 'a' });
    await userEvent.clear(screen.getByLabelText('User'));
    expect(onChange).toHaveBeenLastCalledWith({ period: 'MINUTE' });
  });

  it('offers "Clear filters" only while a filter is set', async () => {
    const onChange = vi.fn();
    const { rerender } = render(<Bar filters={{}} onChange={onChange} />);
    expect(screen.getByRole('search', { name: 'Filter things' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
    rerender(<Bar filters={{ period: 'MINUTE' }} onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onChange).toHaveBeenLastCalledWith({});
  });
});
