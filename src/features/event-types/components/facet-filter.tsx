// One faceted filter: a checkbox per value with how many rows it would match, and its own clear.
import { memo, useId } from 'react';
import { FILTER_LIMITS } from '../../../shared/filter-values';
import { NOT_SET, type FacetOption } from '../filter-event-types';
import type { FacetKey } from '../use-event-types-view';
import { formatCount } from './format';

export interface FacetFilterProps {
  facet: FacetKey;
  legend: string;
  options: readonly FacetOption[];
  onToggle: (facet: FacetKey, value: string) => void;
  onClear: (facet: FacetKey) => void;
}

/** A fieldset of checkboxes named "<value> (<count>)". */
export const FacetFilter = memo(function FacetFilter({
  facet,
  legend,
  options,
  onToggle,
  onClear,
}: FacetFilterProps) {
  const id = useId();
  const selectedCount = options.filter((option) => option.selected).length;
  // A link carries at most this many values per filter; further boxes wait until one is unticked.
  const full = selectedCount >= FILTER_LIMITS.maxValues;
  return (
    <fieldset className="facet">
      <legend className="facet-legend">{legend}</legend>
      {selectedCount > 0 ? (
        // Outside the legend so the group's accessible name stays just the field's name.
        <div className="facet-selection">
          <span>{selectedCount} selected</span>
          <button
            type="button"
            className="button-link"
            onClick={() => onClear(facet)}
            aria-label={`Clear ${legend} filter`}
          >
            Clear
          </button>
        </div>
      ) : null}
      {options.length === 0 ? (
        <p className="muted facet-empty">No values.</p>
      ) : (
        <ul className="facet-options">
          {options.map((option, index) => {
            const inputId = `${id}-${index}`;
            return (
              <li key={option.value} data-empty={option.count === 0 || undefined}>
                <input
                  id={inputId}
                  type="checkbox"
                  checked={option.selected}
                  disabled={full && !option.selected}
                  onChange={() => onToggle(facet, option.value)}
                />
                <label htmlFor={inputId}>
                  <span
                    className={option.value === NOT_SET ? 'facet-value not-set' : 'facet-value'}
                  >
                    {option.value}
                  </span>{' '}
                  <span className="facet-count">({formatCount(option.count)})</span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
});
