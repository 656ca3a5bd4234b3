// The confirmation before an action that cannot be undone: asked in the page, with focus on the
// confirming button, and never through the browser's confirm().
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmButton } from './confirm-button';

afterEach(() => vi.unstubAllGlobals());

describe('ConfirmButton', () => {
  it('asks in the page, acts on the confirming button, and never calls window.confirm', async () => {
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    const onConfirm = vi.fn();
    render(
      <ConfirmButton
        className="button"
        busy={false}
        question="Revoke the key?"
        onConfirm={onConfirm}
      >
        Revoke
      </ConfirmButton>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('group', { name: 'Revoke the key?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revoke' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('steps back on "Keep" without acting, focus back on the first button', async () => {
    const onConfirm = vi.fn();
    render(
      <ConfirmButton className="button" busy={false} question="Remove it?" onConfirm={onConfirm}>
        Remove
      </ConfirmButton>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await user.click(screen.getByRole('button', { name: 'Keep' }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Remove' })).toHaveFocus();
  });
});
