// The accountability report: for one period, the figures a data-protection officer gives a
// regulator (how many people were looked up, by whom, under which purposes, how many lookups had
// none), the administrative changes made, and the state of the trail's evidence. People are
// counted by the keyed hash of the identifier asked for: the report never holds an identifier.
import * as z from 'zod/mini';

/** Export formats of the report: JSON for programs, Markdown for people. */
export const ACCOUNTABILITY_EXPORT_FORMATS = ['json', 'md'] as const;
export type AccountabilityExportFormat = (typeof ACCOUNTABILITY_EXPORT_FORMATS)[number];

/** The period when none is asked for: the last 30 days. */
export const DEFAULT_PERIOD_DAYS = 30;

/** The longest period one report covers: a year and a day, so a leap year's report fits. */
export const MAX_PERIOD_DAYS = 367;

/** The administrative changes the page lists; the rest are counted (the export holds them all). */
export const CHANGES_SHOWN = 200;

/** A period, `since` included and `until` excluded, so consecutive months do not overlap. */
export const AccountabilityPeriodSchema = z.object({
  since: z.iso.datetime(),
  until: z.iso.datetime(),
});
export type AccountabilityPeriod = z.infer<typeof AccountabilityPeriodSchema>;

/** `POST /api/accountability/export`: the report for a period, as a signed file. */
export const AccountabilityExportRequestSchema = z.strictObject({
  format: z.enum(ACCOUNTABILITY_EXPORT_FORMATS),
  since: z.optional(z.iso.datetime()),
  until: z.optional(z.iso.datetime()),
});
export type AccountabilityExportRequest = z.infer<typeof AccountabilityExportRequestSchema>;

const count = z.int().check(z.nonnegative());

/** Who looked people up: a signed-in person, or a token (named) acting for its owner. */
export const AccountabilityActorSchema = z.object({
  user: z.string(),
  /** The token's name; null for lookups made by the person signed in. */
  token: z.nullable(z.string()),
  lookups: count,
  people: count,
});
export type AccountabilityActor = z.infer<typeof AccountabilityActorSchema>;

/** The lookups made under one purpose category. */
export const AccountabilityPurposeSchema = z.object({
  category: z.string(),
  lookups: count,
  /** Distinct references (ticket or request ids), case ignored. */
  references: count,
  people: count,
});
export type AccountabilityPurpose = z.infer<typeof AccountabilityPurposeSchema>;

/** One administrative change: who, when, what (before and after stay in the export). */
export const AccountabilityChangeSchema = z.object({
  at: z.iso.datetime(),
  user: z.string(),
  token: z.nullable(z.string()),
  address: z.string(),
  action: z.string(),
  target: z.nullable(z.string()),
});
export type AccountabilityChange = z.infer<typeof AccountabilityChangeSchema>;

/** The state of the chain's evidence for the period, as figures and as one sentence. */
export const AccountabilityEvidenceSchema = z.object({
  /** The latest walk of the chain; null when it was never walked. */
  verification: z.nullable(
    z.object({ at: z.iso.datetime(), ok: z.boolean(), entries: count, detail: z.string() }),
  ),
  /** Whether that walk found the chain intact after the period ended, so it covers every entry. */
  coversPeriod: z.boolean(),
  /** The newest signed checkpoint of the chain's head. */
  latestCheckpoint: z.nullable(z.object({ seq: count, at: z.iso.datetime() })),
  summary: z.string(),
});

/** `GET /api/accountability`: the report for a period. */
export const AccountabilityReportSchema = z.object({
  period: AccountabilityPeriodSchema,
  generatedAt: z.iso.datetime(),
  lookups: z.object({
    total: count,
    /** Distinct identifiers asked for, by keyed hash. */
    people: count,
    /** Lookups that asked for no one (lists by date): they count as lookups, not as people. */
    withoutPerson: count,
  }),
  actors: z.array(AccountabilityActorSchema),
  purposes: z.array(AccountabilityPurposeSchema),
  /** Lookups with no purpose recorded: made before purposes were kept, or while not required. */
  withoutPurpose: z.object({ lookups: count, people: count }),
  changes: z.object({
    total: count,
    /** How many of each action (`alert-destination.created`), most first. */
    byAction: z.array(z.object({ action: z.string(), count })),
    /** The newest CHANGES_SHOWN changes, newest first. */
    items: z.array(AccountabilityChangeSchema),
  }),
  evidence: AccountabilityEvidenceSchema,
});
export type AccountabilityReport = z.infer<typeof AccountabilityReportSchema>;
