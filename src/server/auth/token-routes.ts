// `/api/tokens`: tokens for scripts. Anyone signed in makes tokens for themselves, with a role
// no higher than theirs (tokenRolesFor) and at most a year's life; the token is in the answer to
// the POST and nowhere else. Lists show one's own tokens (admins: everyone's); one's own can be
// revoked, and an admin can revoke anyone's. A request made with a token cannot make another
// token: a leaked token must not be able to outlive its own revocation. Making and revoking one
// are administrative changes: recorded in the audit trail first, refused when they cannot be.
import { Hono } from 'hono';
import * as z from 'zod';
import {
  ApiTokenListSchema,
  ApiTokenSchema,
  CreateApiTokenSchema,
  CreatedApiTokenSchema,
  tokenRolesFor,
  type ApiToken,
  type ApiTokenList,
  type CreatedApiToken,
} from '../../shared/api-tokens';
import { PROBLEM_TYPES } from '../../shared/problem';
import { SESSION_PROBLEM_TYPES } from '../../shared/session';
import type { AppEnv, RequestUser } from '../http/app-env';
import { fingerprint, type RecordChange } from '../http/admin-change';
import { ANY_ROLE, type ApiModule } from '../http/api-operation';
import { firstIssue, invalidBody, readJson } from '../http/json-body';
import type { Logger } from '../observability/logger';
import { HttpProblem } from '../http/problem';
import type { ApiTokenRecord, ApiTokens } from './api-tokens';
import { NO_STORE } from '../http/no-store';

/** A listing never says where the owner's access comes from: that is the server's business. */
function listed({ ownerSource: _, ...token }: ApiTokenRecord): ApiToken {
  return token;
}

/** A token as its audit entry shows it: who may use it, how, until when; never the token. */
function audited(record: ApiTokenRecord) {
  return { name: record.name, owner: record.owner, role: record.role, expiresAt: record.expiresAt };
}

function signedInUser(user: RequestUser | undefined): RequestUser {
  if (!user) throw new Error('token route without a signed-in user');
  return user;
}

/** The routes, mounted at /api/tokens. */
export function tokenRoutes({
  tokens,
  logger,
  recordChange,
}: {
  tokens: ApiTokens;
  logger: Logger;
  recordChange: RecordChange;
}) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const user = signedInUser(c.get('user'));
      const items = await tokens.list(user.role === 'admin' ? undefined : user.username);
      return c.json<ApiTokenList>({ items: items.map(listed) }, 200, NO_STORE);
    })
    .post('/', async (c) => {
      const user = signedInUser(c.get('user'));
      if (user.method === 'token') {
        throw new HttpProblem({
          type: SESSION_PROBLEM_TYPES.forbidden,
          title: 'Tokens are made by a person',
          status: 403,
          detail: 'A token cannot make another token. Sign in to the console to make one.',
        });
      }
      const parsed = CreateApiTokenSchema.safeParse(await readJson(c.req.raw));
      if (!parsed.success) throw firstIssue(parsed.error);
      if (!tokenRolesFor(user.role).includes(parsed.data.role)) {
        throw invalidBody(
          'role',
          `The ${user.role} role can make tokens of the role: ${tokenRolesFor(user.role).join(', ')}.`,
        );
      }
      const { token, record } = await tokens.create(user, parsed.data, (made) =>
        recordChange(c, {
          action: 'token.created',
          target: made.record.id,
          before: null,
          // The fingerprint ties a token found in a leak to the entry that made it.
          after: { ...audited(made.record), token: fingerprint(made.token) },
        }),
      );
      logger.info(
        { user: user.username, tokenId: record.id, tokenName: record.name, role: record.role },
        'token for scripts created',
      );
      return c.json<CreatedApiToken>({ ...listed(record), token }, 201, NO_STORE);
    })
    .delete('/:id', async (c) => {
      const user = signedInUser(c.get('user'));
      const revoked = await tokens.revoke(
        c.req.param('id'),
        (record) => user.role === 'admin' || record.owner === user.username,
        (record) =>
          recordChange(c, {
            action: 'token.revoked',
            target: record.id,
            before: audited(record),
            after: null,
          }),
      );
      // Another person's token is "not found" to a non-admin: its existence is not theirs to know.
      if (!revoked) {
        throw new HttpProblem({
          type: PROBLEM_TYPES.notFound,
          title: 'No such token',
          status: 404,
          detail: 'It may have been revoked already. Reload the list.',
        });
      }
      logger.info(
        { user: user.username, tokenId: revoked.id, owner: revoked.owner },
        'token for scripts revoked',
      );
      return c.json<ApiToken>(listed(revoked), 200, NO_STORE);
    });
}

/** The API description of these routes (api-description/). */
export const tokensApi: ApiModule = {
  base: '/api/tokens',
  tag: {
    name: 'Tokens',
    description:
      'Tokens for scripts: `Authorization: Bearer pac_…` on any /api route the token’s role may use, without a cookie or X-CSRF.',
  },
  operations: [
    {
      method: 'get',
      path: '/',
      operationId: 'listTokens',
      summary: 'Your tokens (an admin: everyone’s), newest first, expired ones included',
      access: { session: ANY_ROLE },
      responses: {
        200: {
          description: 'The tokens, never the tokens themselves.',
          schema: ApiTokenListSchema,
        },
      },
    },
    {
      method: 'post',
      path: '/',
      operationId: 'createToken',
      summary: 'Make a token for scripts; the answer is the only time it is shown',
      description:
        'The role may be the creator’s own; an admin may give any role. At most 365 days. A request made with a token cannot make another.',
      access: { session: ANY_ROLE },
      body: CreateApiTokenSchema,
      responses: {
        201: { description: 'The token, once, with its listing.', schema: CreatedApiTokenSchema },
      },
      problems: {
        400: 'The name, role (above the creator’s) or expiry is not accepted (`/problems/invalid-parameter`).',
        503: 'The audit trail cannot record it now, so no token was made (`/problems/audit-unavailable`).',
      },
    },
    {
      method: 'delete',
      path: '/:id',
      operationId: 'revokeToken',
      summary: 'Revoke a token: it stops working at once',
      description: 'Your own; an admin can revoke anyone’s.',
      access: { session: ANY_ROLE },
      params: z.object({ id: z.string() }),
      responses: {
        200: { description: 'The revoked token.', schema: ApiTokenSchema },
      },
      problems: {
        404: 'No such token of yours (`/problems/not-found`).',
        503: 'The audit trail cannot record it now, so the token still works (`/problems/audit-unavailable`).',
      },
    },
  ],
};
