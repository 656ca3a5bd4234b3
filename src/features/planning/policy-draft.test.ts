// The what-if form's text fields turned into the policy the BFF checks, and the BFF's refusal put
// back on the field it names.
import { describe, expect, it } from 'vitest';
import { draftFromInForce, fieldOfParameter, policyOfDraft } from './policy-draft';
import { policies } from './test-support/policies';

describe('the what-if form’s policy', () => {
  it('starts from the policy in force: its numbers, the module rules it keeps', () => {
    const draft = draftFromInForce(policies);
    expect(draft).toMatchObject({
      accountMinute: '20000',
      accountHour: '200000',
      endpointMinute: '',
    });
    expect(draft.modules.map((module) => [module.id, module.on])).toEqual([
      ['v2-datasubjects-quota', true],
      ['scim-quota', false],
    ]);
  });

  it('sends the other published version as it is', () => {
    expect(policyOfDraft(draftFromInForce(policies), policies)).toEqual({
      ok: true,
      policy: { kind: 'published', version: 'per-endpoint' },
    });
  });

  it('reads numbers as typed, thousands separators included; an empty field is no limit', () => {
    const draft = {
      ...draftFromInForce(policies),
      kind: 'custom' as const,
      accountMinute: '12,500',
      accountHour: '',
    };
    expect(policyOfDraft(draft, policies)).toEqual({
      ok: true,
      policy: {
        kind: 'custom',
        accountMinute: 12_500,
        accountHour: null,
        endpointMinute: null,
        moduleRules: [{ id: 'v2-datasubjects-quota', minute: 300, hour: 18_000 }],
      },
    });
  });

  it('names each field that is not a number, and sends nothing', () => {
    const draft = {
      ...draftFromInForce(policies),
      kind: 'custom' as const,
      accountMinute: 'lots',
      modules: draftFromInForce(policies).modules.map((module) => ({ ...module, hour: '1e5x' })),
    };
    const result = policyOfDraft(draft, policies);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : [...result.errors.keys()]).toEqual([
      'accountMinute',
      'module:v2-datasubjects-quota:hour',
    ]);
  });

  it('puts the BFF’s refusal on the field it names, counting only the module rules sent', () => {
    const draft = {
      ...draftFromInForce(policies),
      modules: draftFromInForce(policies).modules.map((module) => ({
        ...module,
        on: module.id === 'scim-quota',
      })),
    };
    expect(fieldOfParameter('policy.accountHour', draft)).toBe('accountHour');
    expect(fieldOfParameter('policy.moduleRules[0].hour', draft)).toBe('module:scim-quota:hour');
    expect(fieldOfParameter('policy.moduleRules[3].minute', draft)).toBeUndefined();
    expect(fieldOfParameter('policy', draft)).toBeUndefined();
  });
});
