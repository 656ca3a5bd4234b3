// The recognised operation templates: reduction of concrete paths and identifier detection (the
// reporter package's copy is generated: scripts/write-reporter-templates.test.ts).
import { describe, expect, it } from 'vitest';
import { OTHER_TEMPLATE, pathHasIdentifier, templateOfPath } from './operation-templates';

describe('operation templates', () => {
  it('reduces a concrete path to its documented template', () => {
    expect(
      templateOfPath(
        '/rest/api/consent/v4/datasubjects/profiles/1d3e8f6a-4a51-4f35-9a9e-2d1c5b7a8e90',
      ),
    ).toBe('/rest/api/consent/v4/datasubjects/profiles/{purposeGuid}');
    expect(templateOfPath('/tenant/integrationmanager/api/v1/webhook/abc')).toBe(
      '/integrationmanager/api/v1/webhook/*',
    );
    expect(templateOfPath('/not/documented')).toBe(OTHER_TEMPLATE);
  });

  it('recognises identifier-like path values', () => {
    expect(pathHasIdentifier('/x/jane.doe%40example.com')).toBe(true);
    expect(pathHasIdentifier('/x/+44 20 7946 0958')).toBe(true);
    expect(pathHasIdentifier('/rest/api/consent/v4/datasubjects/profiles/{purposeGuid}')).toBe(
      false,
    );
  });
});
