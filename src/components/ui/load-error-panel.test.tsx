// The shared "could not be loaded" panel: an alert with the failure and its detail, and a
// "Try again" that loads again, but not a second time while a retry is still in flight.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoadErrorPanel, type FailedLoad } from './load-error-panel';

const failed = (message: string, isFetching = false): FailedLoad & { refetch: () => void } => ({
  error: new Error(message),
  isFetching,
  refetch: vi.fn(),
});

describe('LoadErrorPanel', () => {
  it('announces the failure with its detail and retries on "Try again"', async () => {
    const query = failed('The console server is unavailable.');
    render(<LoadErrorPanel title="The incidents could not be loaded" query={query} />);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { level: 2 })).toHaveTextContent(
      'The incidents could not be loaded',
    );
    expect(alert).toHaveTextContent('The console server is unavailable.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(query.refetch).toHaveBeenCalledTimes(1);
  });

  it('keeps "Try again" focusable but inert while a retry is in flight', async () => {
    const query = failed('Network error', true);
    render(<LoadErrorPanel title="The list could not be loaded" query={query} />);
    const button = screen.getByRole('button', { name: 'Try again' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(button);
    expect(button).toHaveFocus();
    expect(query.refetch).not.toHaveBeenCalled();
  });

  it('puts a detail of its own before the error message, in the page outline given', () => {
    render(
      <LoadErrorPanel
        headingLevel={3}
        title="The console server could not be reached"
        detail="Check your connection, then try again."
        query={failed('Failed to fetch')}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { level: 3 })).toHaveTextContent(
      'The console server could not be reached',
    );
    expect(alert).toHaveTextContent('Check your connection, then try again.');
    expect(alert).not.toHaveTextContent('Failed to fetch');
  });

  it('offers no button when nothing can be retried', () => {
    render(<LoadErrorPanel title="The forecast could not be loaded" detail="Gone." />);
    expect(screen.getByRole('alert')).toHaveTextContent('Gone.');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
