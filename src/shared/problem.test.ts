import { describe, expect, it } from 'vitest';
import { ALERT_PROBLEM_TYPES } from './alerts';
import { DATA_SUBJECT_PROBLEM_TYPES } from './data-subject-operations';
import { PROBLEM_TYPES } from './problem';
import { SESSION_PROBLEM_TYPES } from './session';

describe('the problem type registry', () => {
  it('gives every problem its own stable /problems/<slug> type', () => {
    const types = Object.values(PROBLEM_TYPES);
    for (const type of types) expect(type).toMatch(/^\/problems\/[a-z]+(-[a-z]+)*$/);
    expect(new Set(types).size).toBe(types.length);
  });

  it('is where the narrower views take their types from', () => {
    const registered = new Set<string>(Object.values(PROBLEM_TYPES));
    const views = [SESSION_PROBLEM_TYPES, DATA_SUBJECT_PROBLEM_TYPES, ALERT_PROBLEM_TYPES];
    for (const view of views) {
      for (const type of Object.values(view)) expect(registered).toContain(type);
    }
  });
});
