// The shared filter bar: a change sets one filter and keeps the others, emptying a field or
// choosing "Any" drops that filter (no `?user=` left in the URL), and "Clear filters" shows only
// while a filter is set.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FilterBar, FilterInput, FilterSelect, useFilterSetter } from './filter-bar';

interface Filters {
  user?: string;
  period?: string;
}

function Bar({ filters, onChange }: { filters: Filters; onChange: (next: Filters) => void }) {
  const set = useFilterSetter(filters, onChange);
  return (
    <FilterBar
      label="Filter things"
      active={Object.keys(filters).length > 0}
      onClear={() => onChange({})}
    >
      <FilterInput
        label="User"
        value={filters.user ?? ''}
        onChange={(event) => set({ user: event.target.value || undefined })}
      />
      <FilterSelect
        label="Period"
        value={filters.period}
        options={[{ value: 'MINUTE', label: 'Minute' }]}
        onChange={(period) => set({ period })}
      />
    </FilterBar>
  );
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
