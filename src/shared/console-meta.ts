// Shape of `GET /api/meta`: the console's mode, tier and the facts the support text quotes. The BFF
// answers with it; every page that needs it reads it through one query.
import * as z from 'zod/mini';
import { PURPOSE_MODES } from './lookup-purpose';
import { ACCOUNT_TIERS } from './rate-limits';

/** `GET /api/meta`: what the SPA needs to know about the console it talks to. */
export const ConsoleMetaSchema = z.object({
  mode: z.enum(['demo', 'live']),
  accountTier: z.enum(ACCOUNT_TIERS),
  /** True when this console offers the demo controls (demo mode only, admins and support). */
  demoControls: z.boolean(),
  /** The platform's host the console calls, for the support text ("api.example.com"). */
  serviceHost: z.optional(z.string()),
  /** The OAuth client id the console signs in with (never the secret), for the support text. */
  oauthClientId: z.optional(z.string()),
  /** Each operation id an incident can name, as the platform's method and path. */
  operations: z.optional(z.record(z.string(), z.string())),
  /**
   * Whether a lookup must state why (LOOKUP_PURPOSE) and the categories it may name
   * (LOOKUP_PURPOSE_CATEGORIES): the data-subjects page's purpose bar and the audit page's
   * Category filter offer them. Not secret: the same for every signed-in person.
   */
  lookupPurpose: z.optional(
    z.object({ mode: z.enum(PURPOSE_MODES), categories: z.array(z.string()) }),
  ),
});
export type ConsoleMeta = z.infer<typeof ConsoleMetaSchema>;
