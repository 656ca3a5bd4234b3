// The alerts page as each role sees it: admins get the controls and the add form; support reads
// the forecast, destinations and delivery log without a single control.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Delivery, Destination, ForecastResponse } from '../../../shared/alerts';
import type { Role } from '../../../shared/session';
import { AlertsPage } from './alerts-page';

const destination: Destination = {
  id: '0194b6c2-8000-7000-8000-000000000001',
  name: 'On-call',
  kind: 'webhook',
  signing: 'console-signature',
  urlHint: 'https://alerts.example.com/…c123',
  events: ['incident.new', 'governor.holding'],
  enabled: true,
  holdBackSeconds: 90,
  createdAt: '2025-01-06T09:00:00.000Z',
};
const delivery: Delivery = {
  id: '0194b6c2-8000-7000-8000-000000000002',
  destinationId: destination.id,
  connection: 'default',
  event: 'incident.new',
  summary: 'The platform refused a request',
  occurredAt: '2025-01-06T09:00:00.000Z',
  ruleId: 'account-minute',
  period: 'MINUTE',
  createdAt: '2025-01-06T09:00:00.000Z',
  status: 'dead',
  attempts: 6,
  nextAttemptAt: null,
  lastAttemptAt: '2025-01-06T09:30:00.000Z',
  deliveredAt: null,
  responseStatus: 503,
  error: 'The receiver answered 503',
  latencyMs: 41,
};
const forecast: ForecastResponse = {
  now: '2025-01-06T09:00:00.000Z',
  limits: [
    {
      key: 'account-minute:MINUTE',
      ruleId: 'account-minute',
      period: 'MINUTE',
      limit: 20_000,
      windowSeconds: 60,
      used: 12,
      ratePerMinute: 12,
      percentUsed: 0.1,
      thresholdPercent: 80,
      secondsToExhaustion: null,
      exhaustsAt: null,
      level: 'ok',
      source: 'console',
      block: null,
      setAside: 20_000,
    },
  ],
};

let deliveries: Delivery[] = [delivery];

function serve(role: Role) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      if (input === '/api/session') return Response.json({ username: role, role });
      if (input === '/api/alerts/forecast') return Response.json(forecast);
      if (input === '/api/alerts/destinations') return Response.json({ items: [destination] });
      if (input.endsWith('/deliveries')) return Response.json({ items: deliveries });
      return new Response(null, { status: 404 });
    }),
  );
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AlertsPage />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  deliveries = [delivery];
});

describe('AlertsPage', () => {
  it('gives an admin the test, resend and threshold controls and the add form', async () => {
    serve('admin');
    renderPage();
    const card = await screen.findByRole('article', { name: 'On-call' });
    expect(within(card).getByText(/Requests held back over 90 s/)).toBeInTheDocument();
    const row = await within(card).findByRole('row', { name: /Dead-lettered/ });
    expect(row).toHaveTextContent('6');
    expect(row).toHaveTextContent('41 ms');
    expect(row).toHaveTextContent('The receiver answered 503');
    expect(within(row).getByRole('button', { name: 'Resend' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Send test' })).toBeInTheDocument();
    expect(
      await screen.findByLabelText('Warning threshold of Account minute limit, percent'),
    ).toHaveValue('80');
    expect(screen.getByRole('heading', { name: 'Add a destination' })).toBeInTheDocument();
  });

  it('lets an admin add a webhook signed the Standard Webhooks way and shows how it is checked', async () => {
    serve('admin');
    const answered = vi.mocked(fetch).getMockImplementation()!;
    const posted: unknown[] = [];
    vi.mocked(fetch).mockImplementation(async (input, init) => {
      if (input === '/api/alerts/destinations' && init?.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        return Response.json(
          {
            destination: { ...destination, name: 'Receiver', signing: 'standard-webhooks' },
            secret: 'whsec_dGVzdC1vbmx5LW5vdC1hLXNlY3JldA==',
          },
          { status: 201 },
        );
      }
      return answered(input, init);
    });
    renderPage();
    const user = userEvent.setup();
    expect(await screen.findByText(/Webhook signed with Console-Signature/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'Receiver');
    await user.type(screen.getByLabelText('URL'), 'https://alerts.example.com/hook');
    await user.click(screen.getByRole('radio', { name: /^Standard Webhooks/ }));
    await user.click(screen.getByRole('button', { name: 'Add destination' }));
    expect(await screen.findByText('webhook-signature')).toBeInTheDocument();
    expect(posted).toEqual([
      expect.objectContaining({
        name: 'Receiver',
        kind: 'webhook',
        url: 'https://alerts.example.com/hook',
        signing: 'standard-webhooks',
      }),
    ]);

    await user.click(screen.getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('radio', { name: /Slack-compatible/ }));
    expect(screen.queryByRole('radio', { name: /^Standard Webhooks/ })).toBeNull();
  });

  it('shows support the log and forecast without any control', async () => {
    serve('support');
    renderPage();
    const card = await screen.findByRole('article', { name: 'On-call' });
    await within(card).findByRole('row', { name: /Dead-lettered/ });
    const limit = await screen.findByRole('row', { name: /Account minute limit .*OK/ });
    // A forged flood left out of the figure is named beside it, not silently dropped.
    expect(limit).toHaveTextContent('Not counted: 20,000 reported requests set aside');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryByRole('heading', { name: 'Add a destination' })).toBeNull();
    expect(screen.getByText(/Only administrators can change/)).toBeInTheDocument();
  });

  it('names the limit of each alert and orders the log by when things happened', async () => {
    // Queued newest first: the block's end was queued with its start but happened a minute later.
    deliveries = [
      {
        ...delivery,
        id: '0194b6c2-8000-7000-8000-000000000004',
        event: 'limit.near',
        summary: 'v2 data-subjects quota per hour is at 85%',
        occurredAt: '2025-01-06T09:00:20.000Z',
        createdAt: '2025-01-06T09:00:20.000Z',
        ruleId: 'v2-datasubjects-quota',
        period: 'HOUR',
      },
      {
        ...delivery,
        id: '0194b6c2-8000-7000-8000-000000000003',
        event: 'block.ended',
        summary: 'The block ended',
        occurredAt: '2025-01-06T09:01:00.000Z',
        createdAt: '2025-01-06T09:00:00.000Z',
      },
    ];
    serve('support');
    renderPage();
    const card = await screen.findByRole('article', { name: 'On-call' });
    await within(card).findByRole('row', { name: /A block ended/ });
    const rows = within(card).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]?.textContent)).toEqual([
      'Account minute limit',
      'v2 data-subjects quota per hour',
    ]);
    expect(rows[0]).toHaveTextContent('A block ended');
  });
});
