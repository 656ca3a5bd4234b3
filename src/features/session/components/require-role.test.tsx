// A page for some roles says why it is closed, and on a connection's page the role in that
// connection decides: an admin of the console who is support in UAT is not let in there.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  jsonAnswer,
  renderWithQueries,
  stubApiPerTest,
} from '../../../lib/test-support/render-with-queries';
import { RequireRole } from './require-role';

stubApiPerTest((url) =>
  url === '/api/session'
    ? jsonAnswer({ username: 'ada', role: 'admin', roles: { default: 'admin', uat: 'support' } })
    : undefined,
);

const REASON = 'This page looks up data subjects: it shows personal data.';

describe('RequireRole', () => {
  it('shuts a connection’s page to the person’s role in it, whatever their console-wide role', async () => {
    renderWithQueries(
      <RequireRole roles={['admin']} reason={REASON} connection={{ label: 'UAT', role: 'support' }}>
        <p>the page</p>
      </RequireRole>,
    );
    expect(
      await screen.findByRole('heading', { name: 'Not available for your role' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/The support role in UAT cannot use it\./)).toBeInTheDocument();
    expect(screen.queryByText('the page')).toBeNull();
  });

  it('opens a connection’s page to its admin, and a console-wide page to a console-wide one', async () => {
    renderWithQueries(
      <>
        <RequireRole
          roles={['admin']}
          reason={REASON}
          connection={{ label: 'Production (EU)', role: 'admin' }}
        >
          <p>the connection’s page</p>
        </RequireRole>
        <RequireRole roles={['admin']} reason={REASON}>
          <p>the console-wide page</p>
        </RequireRole>
      </>,
    );
    expect(await screen.findByText('the connection’s page')).toBeInTheDocument();
    expect(screen.getByText('the console-wide page')).toBeInTheDocument();
  });
});
