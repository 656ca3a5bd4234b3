// Generated from the console’s table of platform operations by
// scripts/write-reporter-templates.ts (`npm run reporter-templates`): do not edit by hand.
// A request path is reduced to one of these before it is counted, so no concrete path value is
// ever kept or sent.

/** Method and documented path template; `{name}` matches one segment, a trailing `*` more. */
export const TEMPLATES: ReadonlyArray<readonly [method: string, template: string]> = [
  ['POST', '/api/access/v1/oauth/token'],
  ['GET', '/api/audit/v4/audits/event-types'],
  ['GET', '/rest/api/consent/v4/datasubjects'],
  ['GET', '/rest/api/consent/v4/datasubjects/basic-details'],
  ['GET', '/rest/api/consent/v4/datasubjects/details'],
  ['GET', '/rest/api/consent/v4/datasubjects/ds-profiles'],
  ['GET', '/rest/api/consent/v4/datasubjects/profiles'],
  ['GET', '/rest/api/consent/v4/datasubjects/profiles/{purposeGuid}'],
  ['GET', '/rest/api/consent/v4/datasubjects/linktokens'],
  ['GET', '/rest/api/consent/v4/linktokens'],
  ['GET', '/rest/api/consent/v4/linkedidentitygroups'],
  ['POST', '/rest/api/consent/v4/linkedidentitygroups'],
  ['GET', '/rest/api/consent/v4/linkedidentitygroups/{dataSubjectGroupId}/members'],
  ['GET', '/api/consentmanager/v1/datasubjects/profiles'],
  ['GET', '/api/consentmanager/v2/datasubjects'],
  ['GET', '/rest/api/preferences/v3/datasubjects/profile'],
  ['GET', '/rest/api/preferences/v3/datasubject-profiles'],
  ['GET', '/api/consentmanager/v1/linktokens'],
  ['GET', '/api/consentmanager/v2/linkedidentitygroups'],
  ['POST', '/api/consentmanager/v2/linkedidentitygroups'],
  ['GET', '/api/consentmanager/v2/linkedidentitygroups/{linkedIdentityGroupId}'],
  ['POST', '/request/v1/consentreceipts'],
  ['POST', '/v1/consentreceipts/bulk'],
  ['GET', '/v1/preferences'],
  ['POST', '/integrationmanager/api/v1/webhook/*'],
  ['GET', '/api/scim/*'],
];
