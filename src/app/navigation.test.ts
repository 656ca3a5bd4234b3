// Each page has its own document title, so tabs and history entries can be told apart.
import { describe } from 'vitest';
import { itMapsEach } from '../lib/test-support/each-case';
import { documentTitleFor } from './navigation';

describe('documentTitleFor', () => {
  itMapsEach('%s is titled “%s”', documentTitleFor, [
    ['/event-types', 'Event types · Privacy API Console'],
    ['/rate-limits', 'Rate limits · Privacy API Console'],
    ['/data-subjects', 'Data subjects · Privacy API Console'],
    ['/audit', 'Audit · Privacy API Console'],
    ['/sign-in', 'Sign in · Privacy API Console'],
    ['/nowhere', 'Page not found · Privacy API Console'],
  ]);
});
