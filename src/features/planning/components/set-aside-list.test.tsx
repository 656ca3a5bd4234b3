// The planning pages name the reported minutes they left out, and say nothing when none was.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SetAsideList } from './set-aside-list';

const entry = {
  source: 'b1c2',
  name: 'Preference centre backend',
  minute: '2026-03-10T09:30:00.000Z',
  reported: 20_000,
};

describe('SetAsideList', () => {
  it('names each minute left out and what it was left out of', () => {
    render(
      <SetAsideList
        id="set-aside"
        title="Set aside, not counted"
        entries={[entry]}
        leftOutOf="the readiness figures"
      />,
    );
    const section = screen.getByRole('region', { name: 'Set aside, not counted (1)' });
    expect(section).toHaveTextContent(/Preference centre backend, .*: 20,000 requests reported/);
    expect(section).toHaveTextContent('left them out of the readiness figures');
  });

  it('shows nothing when no minute was set aside', () => {
    const { container } = render(
      <SetAsideList id="set-aside" title="Set aside" entries={[]} leftOutOf="both replays" />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
