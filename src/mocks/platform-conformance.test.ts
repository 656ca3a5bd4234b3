// The built-in mock keeps the platform's contract, as a validator nobody on this project wrote
// judges it: Stoplight Prism, as a validating proxy serving the console's description of the
// platform (docs/platform-openapi.json), stands between the console and the mock. The console
// runs every data-subject operation through its own routes (every page of every listing, every
// optional parameter, the not-found answers) and the event types; Prism must find no request the
// console sent and no answer the mock gave that the description forbids.
//
// The token request goes to the mock directly: the description gives it as the vendor's document
// does (a multipart form), and which encoding the console sends is the token client's decision
// (docs/platform-contract.md), not the mock's.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_CONTRACT, type ContractOperation } from '../shared/data-subject-contract';
import {
  DEMO_IDENTIFIERS,
  DEMO_LINKED_GROUP_ID,
  DEMO_PURPOSE_GUID,
  DEMO_UNKNOWN_IDENTIFIER,
} from '../shared/data-subject-demo';
import { LookupResponseSchema } from '../shared/data-subject-lookups';
import {
  BUILT_IN_OPERATIONS,
  type DataSubjectOperation,
  type OperationParam,
} from '../shared/data-subject-operations';
import { EVENT_TYPES_OPERATION } from '../shared/event-types';
import { PLATFORM_TOKEN_PATH } from '../shared/platform-openapi';
import { startBffHarness, type BffHarness } from '../server/test-support/bff-harness';
import {
  prismLogViolations,
  prismViolations,
  startPrismProxy,
  type PrismProxy,
} from '../server/test-support/prism-proxy';
import type { MockOperation } from './operations';
import { startMockUpstreamServer, type MockUpstreamServer } from './server';
import { withPurpose } from '../server/test-support/lookup-purpose';

const DESCRIPTION = 'docs/platform-openapi.json';
const DAY = 86_400_000;

/** The token request's operation id in the description (the vendor's token document's). */
const TOKEN_OPERATION_ID = 'GetOAuthToken';

let mock: MockUpstreamServer;
let prism: PrismProxy;
let h: BffHarness;

beforeAll(async () => {
  mock = await startMockUpstreamServer({ port: 0 });
  prism = await startPrismProxy(DESCRIPTION, mock.url);
  h = await startBffHarness({
    upstream: mock,
    env: {
      UPSTREAM_BASE_URL: prism.url,
      // The token request goes through Prism too: multipart/form-data, as the document declares.
      OAUTH_TOKEN_URL: `${prism.url}${PLATFORM_TOKEN_PATH}`,
    },
  });
}, 180_000);

afterAll(async () => {
  await h?.close();
  await prism?.close();
  await mock?.close();
});

/** A valid value for `param`; optional filters only when `all` (they narrow the listings). */
function valueFor(operation: DataSubjectOperation, param: OperationParam, now: number): string {
  switch (param.format) {
    case 'identifier':
      return DEMO_IDENTIFIERS[0];
    case 'uuid':
      return param.name === 'linkedIdentityGroupId' || param.name === 'dataSubjectGroupId'
        ? DEMO_LINKED_GROUP_ID
        : DEMO_PURPOSE_GUID;
    case 'date-time':
      return new Date(param.name === operation.dateRange?.to ? now : now - 6 * DAY).toISOString();
    case 'integer':
      return String(param.name === 'page' ? 0 : Math.min(param.max ?? 5, 5));
    case 'enum':
      return param.values?.[0] ?? '';
    case 'boolean':
      return 'true';
    case 'id':
      return DEMO_IDENTIFIERS[0];
  }
}

function paramsOf(operation: DataSubjectOperation, which: 'required' | 'all') {
  const now = Date.now();
  return Object.fromEntries(
    operation.params
      .filter((param) => which === 'all' || param.required)
      .map((param) => [param.name, valueFor(operation, param, now)]),
  );
}

async function lookup(body: unknown) {
  const response = await h.request('/api/data-subjects/lookups', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(withPurpose(body)),
  });
  const json: unknown = await response.json();
  return { status: response.status, json };
}

/** Every page of `operation`'s listing: by continuation (v4 slices) or by page number (legacy). */
async function allPages(operation: DataSubjectOperation, params: Record<string, string>) {
  const statuses: number[] = [];
  let continuation: string | undefined;
  for (let page = 0; page < 40; page += 1) {
    const paged = operation.params.some((param) => param.name === 'page')
      ? { ...params, page: String(page) }
      : params;
    const answer = await lookup({
      operation: operation.id,
      params: paged,
      ...(continuation ? { continuation } : {}),
    });
    statuses.push(answer.status);
    if (answer.status !== 200) break;
    const { data, continuation: next } = LookupResponseSchema.parse(answer.json);
    const last = (data as { last?: unknown } | null)?.last;
    continuation = next;
    if (operation.continuation ? !next : last !== false) break;
  }
  return statuses;
}

/** Prism's log with the lines of every request answered so far. */
const settledLog = () => prism.settledLog(EVENT_TYPES_OPERATION.path);

/** The contract operation a request to Prism was for, by its method and concrete path. */
function contractFor(method: string, path: string): ContractOperation | undefined {
  return PLATFORM_CONTRACT.find(
    (operation) =>
      operation.method === method &&
      new RegExp(`^${operation.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path),
  );
}

/** The answers that came through Prism since `from`, each with what Prism found wrong with it. */
function verdicts(from = 0) {
  const throughPrism = h.answered
    .slice(from)
    .filter(({ request }) => request.url.href.startsWith(prism.url));
  const broken = throughPrism
    .map(({ request, response }) => ({
      call: `${request.method} ${request.url.pathname} → ${response.status}`,
      violations: prismViolations(response),
    }))
    .filter((each) => each.violations.length > 0)
    .map((each) => {
      const messages = [...new Set(each.violations.map((v) => `${v.side}: ${v.message}`))];
      return `${each.call}: ${messages.slice(0, 3).join('; ')}${messages.length > 3 ? '; …' : ''}`;
    });
  return { throughPrism, broken };
}

describe('the mock behind a validating proxy serving docs/platform-openapi.json', () => {
  it('answers every operation the console runs, every page, option and not-found, only as documented', async () => {
    const logFrom = (await settledLog()).length;
    const failedPages: string[] = [];
    const unknown: Record<string, number> = {};
    const expectedUnknown: Record<string, number> = {};
    for (const operation of BUILT_IN_OPERATIONS) {
      // Small pages so listings run over several; then every option at once.
      const required = paramsOf(operation, 'required');
      const small = operation.params.some((param) => param.name === 'size')
        ? { ...required, size: '3' }
        : required;
      for (const params of [small, paramsOf(operation, 'all')]) {
        const statuses = await allPages(operation, params);
        if (statuses.some((status) => status !== 200))
          failedPages.push(`${operation.id}: ${statuses}`);
      }
      // Then someone or something the platform does not have: the v4 documents' not-found answer
      // (404 at the console); an empty page from a legacy listing; a refusal from a legacy lookup
      // of one record (400 upstream, the only documented choice; 502 at the console).
      const params = { ...required };
      let looksUp = false;
      for (const param of operation.params.filter((each) => each.required)) {
        if (param.format === 'identifier') params[param.name] = DEMO_UNKNOWN_IDENTIFIER;
        else if (param.location === 'path') params[param.name] = randomUUID();
        else continue;
        looksUp = true;
      }
      const listing = operation.params.some((param) => param.name === 'page');
      expectedUnknown[operation.id] =
        operation.version === 'v4' ? (looksUp ? 404 : 200) : looksUp && !listing ? 502 : 200;
      unknown[operation.id] = (await lookup({ operation: operation.id, params })).status;
    }
    const eventTypes = await h.request('/api/event-types');
    expect(eventTypes.status).toBe(200);

    const { throughPrism, broken } = verdicts();
    console.info(`Prism: ${broken.length} of ${throughPrism.length} answers break ${DESCRIPTION}`);
    expect(
      broken,
      `answers that break the description (${broken.length} of ${throughPrism.length})`,
    ).toEqual([]);
    expect(prismLogViolations((await settledLog()).slice(logFrom))).toEqual([]);

    // Every documented operation the console calls was exercised through Prism, with its answers.
    const covered = new Set(
      throughPrism.map(
        ({ request }) =>
          (request.url.pathname === EVENT_TYPES_OPERATION.path
            ? EVENT_TYPES_OPERATION.operationId
            : request.url.pathname === PLATFORM_TOKEN_PATH
              ? TOKEN_OPERATION_ID
              : contractFor(request.method, request.url.pathname)?.operationId) ?? 'unknown',
      ),
    );
    expect([...covered].sort()).toEqual(
      [
        ...PLATFORM_CONTRACT.map((each) => each.operationId),
        EVENT_TYPES_OPERATION.operationId,
        TOKEN_OPERATION_ID,
      ].sort(),
    );
    expect(failedPages).toEqual([]);
    expect(unknown).toEqual(expectedUnknown);
  }, 180_000);

  it('is a validator that bites: it reports an undeclared status and a request without its header', async () => {
    const from = h.answered.length;
    const logFrom = (await settledLog()).length;
    // Fault injection answers whatever a test asks for: here a 404 the legacy document does not declare.
    const group = BUILT_IN_OPERATIONS.find((each) => each.id === 'v2-linked-group')!;
    mock.state.injectFault({ operation: group.id as MockOperation, status: 404 });
    await lookup({ operation: group.id, params: paramsOf(group, 'required') });
    expect(verdicts(from).broken).toEqual([
      expect.stringMatching(/→ 404: answer: Unable to match the returned status code/),
    ]);
    // A request without the identifier header the v4 document requires never reaches the mock.
    const refused = await fetch(`${prism.url}/rest/api/consent/v4/datasubjects/basic-details`, {
      headers: { authorization: 'Bearer x' },
    });
    expect(refused.status).toBe(422);
    expect(
      prismViolations({
        status: refused.status,
        headers: Object.fromEntries(refused.headers),
        body: await refused.text(),
      }),
    ).toEqual([{ side: 'request', message: expect.stringMatching(/identifier/) }]);
    expect(prismLogViolations((await settledLog()).slice(logFrom))).toHaveLength(2);
  }, 60_000);

  it('refuses as documented: a token it no longer knows, a rate limit with its headers, a failure', async () => {
    const from = h.answered.length;
    const logFrom = (await settledLog()).length;
    const statuses: number[] = [];
    const ask = async (operation: DataSubjectOperation) =>
      statuses.push(
        (await lookup({ operation: operation.id, params: paramsOf(operation, 'required') })).status,
      );
    const v4 = BUILT_IN_OPERATIONS.find((each) => each.id === 'v4-basic-details')!;
    const legacy = BUILT_IN_OPERATIONS.find((each) => each.id === 'v3-datasubject-profile')!;
    for (const operation of [v4, legacy]) {
      await ask(operation);
      // The platform forgets the console's token: 401, then the console signs in again.
      mock.state.reset();
      await ask(operation);
      mock.state.injectFault({ operation: operation.id as MockOperation, status: 500 });
      await ask(operation);
    }
    // Last (also of this file): after a 429 the console holds back every call the limit covers
    // until it ends.
    mock.state.injectFault({ operation: v4.id as MockOperation, status: 429 });
    await ask(v4);
    const refusals = h.answered
      .slice(from)
      .filter(({ request }) => request.url.href.startsWith(prism.url))
      .map(({ response }) => response.status);
    const { broken, throughPrism } = verdicts(from);
    console.info(`Prism: ${broken.length} of ${throughPrism.length} refusals break ${DESCRIPTION}`);
    expect(broken).toEqual([]);
    expect(prismLogViolations((await settledLog()).slice(logFrom))).toEqual([]);
    expect(refusals.filter((status) => status !== 200).sort()).toEqual([401, 401, 429, 500, 500]);
    expect(statuses).toEqual([200, 200, 502, 200, 200, 502, 429]);
  }, 120_000);
});
