// What the built-in mock's synthetic data subjects can be found by, shown as hints in demo mode
// only. The mock builds its data set around these, so the hints always find someone.

/** Identifiers of synthetic data subjects the demo upstream knows. */
export const DEMO_IDENTIFIERS = [
  'ada.lovelace@example.com',
  'grace.hopper@example.com',
  'alan.turing@example.com',
  'katherine.johnson@example.com',
] as const;

/** A purpose every example data subject has a record for. */
export const DEMO_PURPOSE_GUID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

/** The linked identity group whose primary data subject is the first example. */
export const DEMO_LINKED_GROUP_ID = '0b7e5c1a-2d3f-4e5a-9b6c-7d8e9f0a1b2c';

/** An identifier the demo upstream does not know: it answers "not found". */
export const DEMO_UNKNOWN_IDENTIFIER = 'nobody@example.com';
