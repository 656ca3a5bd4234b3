// One faceted filter: a checkbox per value with how many rows it would match, and its own clear.
// Selected values come first and stay in view, values matching nothing go last, a long list gets a
// filter box, and the group is one Tab stop (arrow keys move between its boxes).
import { memo, useId, useRef, useState, type KeyboardEvent } from 'react';
import { FILTER_LIMITS } from '../../../shared/filter-values';
import { NOT_SET, orderFacetOptions, type FacetOption } from '../filter-event-types';
import type { FacetKey } from '../use-event-types-view';
import { formatCount } from '../../../lib/format';

/** From this many values on, the facet offers a box to narrow its list. */
const FACET_FILTER_BOX_FROM = 9;

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
  const [narrow, setNarrow] = useState('');
  // The value whose box is the group's Tab stop (roving focus).
  const [active, setActive] = useState<string | undefined>();
  const list = useRef<HTMLUListElement>(null);
  const selectedCount = options.filter((option) => option.selected).length;
  // A link carries at most this many values per filter; further boxes wait until one is unticked.
  const full = selectedCount >= FILTER_LIMITS.maxValues;
  const needle = narrow.trim().toLowerCase();
  const shown = orderFacetOptions(options).filter(
    // Selected values always stay visible, whatever the box says.
    (option) => option.selected || needle === '' || option.value.toLowerCase().includes(needle),
  );
  // Ids by position in the universe: values may hold spaces, which ids must not.
  const position = new Map(options.map((option, index) => [option.value, index]));
  const tabStop = shown.some((option) => option.value === active) ? active : shown[0]?.value;

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const boxes = [...(list.current?.querySelectorAll<HTMLInputElement>('input') ?? [])];
    const at = boxes.indexOf(event.target as HTMLInputElement);
    if (at < 0) return;
    const next =
      event.key === 'ArrowDown' || event.key === 'ArrowRight'
        ? Math.min(boxes.length - 1, at + 1)
        : event.key === 'ArrowUp' || event.key === 'ArrowLeft'
          ? Math.max(0, at - 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? boxes.length - 1
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    boxes[next]?.focus();
  };

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
      {options.length >= FACET_FILTER_BOX_FROM ? (
        <input
          className="input facet-narrow"
          type="search"
          aria-label={`Find ${legend.toLowerCase()}s`}
          placeholder={`Find ${legend.toLowerCase()}s`}
          autoComplete="off"
          spellCheck={false}
          maxLength={FILTER_LIMITS.maxLength}
          value={narrow}
          onChange={(event) => setNarrow(event.target.value)}
        />
      ) : null}
      {options.length === 0 ? (
        <p className="muted facet-empty">No values.</p>
      ) : shown.length === 0 ? (
        <p className="muted facet-empty">
          No {legend.toLowerCase()} contains “{narrow.trim()}”.
        </p>
      ) : (
        <ul className="facet-options" ref={list} onKeyDown={onKeyDown}>
          {shown.map((option) => {
            const inputId = `${id}-${position.get(option.value) ?? 0}`;
            return (
              <li key={option.value} data-empty={option.count === 0 || undefined}>
                <input
                  id={inputId}
                  type="checkbox"
                  checked={option.selected}
                  disabled={full && !option.selected}
                  tabIndex={option.value === tabStop ? 0 : -1}
                  onFocus={() => setActive(option.value)}
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
