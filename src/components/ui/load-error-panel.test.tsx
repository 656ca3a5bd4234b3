// The shared "could not be loaded" panel: an alert with the failure and its detail, and a
// "Try again" that loads again, but not a second time while a retry is still in flight.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoadErrorPanel } from './load-error-panel';

describe('LoadErrorPanel', () => {
  it('announces the failure with its detail and retries on "Try again"', async () => {
    const onRetry = vi.fn();
    render(
      <LoadErrorPanel
        title="The incidents could not be loaded"
        detail="The console server is unavailable."
        onRetry={onRetry}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { level: 2 })).toHaveTextContent(
      'The incidents could not be loaded',
    );
    expect(alert).toHaveTextContent('The console server is unavailable.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('keeps "Try again" focusable but inert while a retry is in flight', async () => {
    const onRetry = vi.fn();
    render(<LoadErrorPanel title="The list could not be loaded" onRetry={onRetry} retrying />);
    const button = screen.getByRole('button', { name: 'Try again' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(button);
    expect(button).toHaveFocus();
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('fits the page outline and offers no button when nothing can be retried', () => {
    render(<LoadErrorPanel headingLevel={3} title="The forecast could not be loaded" />);
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent(
      'The forecast could not be loaded',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });
});
