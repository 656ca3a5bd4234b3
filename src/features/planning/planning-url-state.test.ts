import { describe, expect, it } from 'vitest';
import { readPlanningView, writePlanningView } from './planning-url-state';

describe('the Planning page’s view in the URL', () => {
  it('reads a shared link, dropping what it does not know', () => {
    expect(readPlanningView(new URLSearchParams('tab=migration&period=week'))).toEqual({
      tab: 'migration',
      period: 'week',
    });
    expect(readPlanningView(new URLSearchParams('tab=evil&period=year'))).toEqual({
      tab: 'what-if',
      period: 'day',
    });
  });

  it('writes only what differs from the defaults', () => {
    expect(writePlanningView({ tab: 'what-if', period: 'day' }).toString()).toBe('');
    expect(writePlanningView({ tab: 'migration', period: 'hour' }).toString()).toBe(
      'tab=migration&period=hour',
    );
  });
});
