// CONNECTIONS_FILE: the platform connections one console serves, in a JSON file, each with the
// settings the single-connection variables give one today. Every error is reported at once, one
// line each, naming the connection and the field, and never a secret.
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import type { ConnectionConfig } from './connection-config';
import { gotValue, httpUrl, plainText } from './config-values';
import {
  conflictingSettings,
  connectionParts,
  ConnectionSettingsSchema,
} from './connection-settings';
import { readableByOthersWarning, readSecretFile, SecretFileError } from '../security/secret-files';
import { CONNECTION_COLOURS, CONNECTION_NAME_PATTERN } from '../../shared/connections';
import { TOKEN_OPERATION } from '../../shared/platform-operations';

const VARIABLE = 'CONNECTIONS_FILE';

/** Thrown with every line to print when CONNECTIONS_FILE cannot be used; never holds a secret. */
export class ConnectionsFileError extends Error {
  override name = 'ConnectionsFileError';
  constructor(readonly lines: readonly string[]) {
    super(lines.join('\n'));
  }
}

/** What reading the file gave: the connections in its order, and start warnings. */
export interface ConnectionsFileResult {
  readonly connections: readonly ConnectionConfig[];
  readonly warnings: readonly string[];
}

/**
 * One entry of the file: a connection's settings (connection-settings.ts) plus its name, label,
 * colour and whether readiness waits for it. A base URL and a client id are required here, as the
 * variables require them in live mode; unknown fields are refused, so a misspelt one (`tokenURL`)
 * is not silently left at its default.
 */
const EntrySchema = ConnectionSettingsSchema.extend({
  name: z
    .string({ error: 'must be text' })
    .regex(
      CONNECTION_NAME_PATTERN,
      'must be 1 to 32 lower-case letters, digits and hyphens, starting with a letter',
    ),
  label: plainText(60).optional(),
  colour: z
    .enum(CONNECTION_COLOURS, { error: `must be one of ${CONNECTION_COLOURS.join(', ')}` })
    .optional(),
  // Default false: a platform outage or a refused credential hits every replica alike, so taking
  // them out of rotation would also take away the other connections' pages and the audit trail;
  // an operator who would rather have the load balancer fail over marks the connection required.
  required: z.boolean({ error: 'must be true or false' }).default(false),
  baseUrl: httpUrl,
  clientId: z.string({ error: 'must be text' }).min(1, 'must not be empty'),
  clientSecretFile: z.string({ error: 'must be text' }).min(1, 'must not be empty').optional(),
}).strict();

type Entry = z.infer<typeof EntrySchema>;

/** Fields whose value is never shown in an error. */
const SECRET_FIELDS = new Set(['clientSecret']);

/**
 * Reads and checks the file at `path`. Throws ConnectionsFileError with one line per problem:
 * the file unreadable or not a JSON list, each entry's bad fields, a secret missing or given
 * twice, two connections with one name, or with one client id at one host or token endpoint.
 * A `clientSecretFile` is read like a NAME_FILE secret, relative to the connections file.
 */
export function readConnectionsFile(path: string): ConnectionsFileResult {
  const { value: text, mode } = read(() => readSecretFile(VARIABLE, path, 'the connections'));
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (error) {
    // The parser's own message quotes the text around the fault, which may be a secret.
    throw new ConnectionsFileError([
      `${VARIABLE} ${path} is not valid JSON${jsonPosition(text, error)}`,
    ]);
  }
  if (!Array.isArray(list) || list.length === 0) {
    throw new ConnectionsFileError([
      `${VARIABLE} ${path} must hold a JSON list of connections, at least one`,
    ]);
  }
  const lines: string[] = [];
  const warnings: string[] = [];
  const checked: { entry: Entry; clientSecret: string }[] = [];
  const identities: Identity[] = [];
  list.forEach((raw: unknown, index) => {
    const title = connectionTitle(raw, index);
    const problems = (message: string) => lines.push(`${VARIABLE}: ${title}: ${message}`);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems('must be an object of settings');
      return;
    }
    const fields = raw as Record<string, unknown>;
    identities.push(identityOf(fields, title));
    const parsed = EntrySchema.safeParse(fields);
    const secretProblems: FieldProblem[] = [];
    const secret = clientSecretOf(fields, path, title, secretProblems, warnings);
    const issues = parsed.success ? [] : parsed.error.issues;
    inFileOrder([...issueProblems(issues, fields), ...secretProblems], fields).forEach(problems);
    if (!parsed.success) return;
    for (const conflict of conflictingSettings(parsed.data, (setting) => setting)) {
      problems(conflict.message);
    }
    if (secret !== undefined) checked.push({ entry: parsed.data, clientSecret: secret });
  });
  lines.push(...sameConnectionLines(identities));
  if (lines.length > 0) throw new ConnectionsFileError(lines);
  const inline = list.some((raw: { clientSecret?: unknown }) => raw.clientSecret);
  const fileWarning = inline ? readableByOthersWarning(VARIABLE, path, mode) : undefined;
  return {
    connections: checked.map(({ entry, clientSecret }, index) => ({
      name: entry.name,
      label: entry.label ?? entry.name,
      // By position, so connections listed without colours are still told apart.
      colour: entry.colour ?? CONNECTION_COLOURS[index % CONNECTION_COLOURS.length]!,
      required: entry.required,
      ...connectionParts(entry, { clientId: entry.clientId, clientSecret }),
    })),
    warnings: fileWarning ? [fileWarning, ...warnings] : warnings,
  };
}

/** `connection "uat" (#2)`, or `connection #2` while the entry has no valid name. */
function connectionTitle(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === 'string' && CONNECTION_NAME_PATTERN.test(name)
    ? `connection "${name}" (#${index + 1})`
    : `connection #${index + 1}`;
}

/**
 * The entry's client secret: `clientSecret`, or the content of `clientSecretFile` (a path relative
 * to the connections file, so the two can be mounted together wherever the console runs). Exactly
 * one of them; each problem goes to `problems`, each warning to `warnings`.
 */
function clientSecretOf(
  raw: Record<string, unknown>,
  listPath: string,
  title: string,
  problems: FieldProblem[],
  warnings: string[],
): string | undefined {
  const inline = raw.clientSecret;
  const file = raw.clientSecretFile;
  const given = (value: unknown) => value !== undefined && value !== '';
  if (given(inline) && given(file)) {
    problems.push({
      field: 'clientSecretFile',
      line: 'clientSecret and clientSecretFile are both set; set only one of them',
    });
    return undefined;
  }
  if (!given(inline) && !given(file)) {
    problems.push({ field: 'clientSecret', line: 'clientSecret or clientSecretFile is required' });
    return undefined;
  }
  // A value of the wrong type is reported with the other fields.
  if (given(inline)) return typeof inline === 'string' ? inline : undefined;
  if (typeof file !== 'string') return undefined;
  const secretPath = resolve(dirname(listPath), file);
  try {
    const { value, mode } = readSecretFile('clientSecretFile', secretPath);
    const warning = readableByOthersWarning(
      `${VARIABLE}: ${title}: clientSecretFile`,
      secretPath,
      mode,
    );
    if (warning) warnings.push(warning);
    return value;
  } catch (error) {
    if (!(error instanceof SecretFileError)) throw error;
    problems.push({ field: 'clientSecretFile', line: error.message });
    return undefined;
  }
}

/** A problem of one entry, with the field it is about (where it is placed among the others). */
interface FieldProblem {
  readonly field: string;
  readonly line: string;
}

/** An entry's zod issues as problems, an unknown field's each on its own. */
function issueProblems(issues: readonly z.core.$ZodIssue[], raw: object): FieldProblem[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: key, line: `${key} is not a connection setting` }))
      : [{ field: String(issue.path[0]), line: issueLine(issue, raw) }],
  );
}

/**
 * The problems' lines in the order their fields are written in the entry (the order the operator
 * reads them), those about missing fields last.
 */
function inFileOrder(problems: readonly FieldProblem[], raw: object): string[] {
  const fields = Object.keys(raw);
  const place = (field: string) => {
    const index = fields.indexOf(field);
    return index === -1 ? fields.length : index;
  };
  return [...problems].sort((a, b) => place(a.field) - place(b.field)).map(({ line }) => line);
}

/** One issue of a field: `timeoutMs must be … (got "5")`; a secret's value is never shown. */
function issueLine(issue: z.core.$ZodIssue, raw: object): string {
  const field = issue.path.map(String).join('.');
  const value = issue.path.reduce<unknown>(
    (at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key],
    raw,
  );
  if (value === undefined && issue.code === 'invalid_type') return `${field} is required`;
  return `${field} ${issue.message}${SECRET_FIELDS.has(String(issue.path[0])) ? '' : gotValue(value)}`;
}

/** What tells connections apart, as far as an entry's own fields are valid. */
interface Identity {
  readonly title: string;
  readonly name: string | undefined;
  readonly clientId: string | undefined;
  /** The platform's host (`host:port`, lower-case). */
  readonly host: string | undefined;
  /** The token endpoint the credential is sent to: tokenUrl, else the platform's default. */
  readonly tokenUrl: string | undefined;
}

/** An entry's identity, each part read on its own so a fault elsewhere hides no duplicate. */
function identityOf(raw: Record<string, unknown>, title: string): Identity {
  const { shape } = EntrySchema;
  const valid = <T>(schema: z.ZodType<T>, value: unknown) => schema.safeParse(value).data;
  const baseUrl = valid(shape.baseUrl, raw.baseUrl);
  const tokenUrl =
    raw.tokenUrl === undefined || raw.tokenUrl === ''
      ? baseUrl && `${baseUrl.replace(/\/+$/, '')}${TOKEN_OPERATION.path}`
      : valid(shape.tokenUrl, raw.tokenUrl);
  return {
    title,
    name: valid(shape.name, raw.name),
    clientId: valid(shape.clientId, raw.clientId),
    host: baseUrl && new URL(baseUrl).host,
    tokenUrl: tokenUrl && new URL(tokenUrl).href,
  };
}

/**
 * Two entries that are one connection: the same name (it keys URLs, Redis and records), or the
 * same client id at the same platform host or token endpoint (one account's credential: each would
 * believe the account's whole budget its own, and together they would exceed it).
 */
function sameConnectionLines(identities: readonly Identity[]): string[] {
  const lines: string[] = [];
  identities.forEach((entry, index) => {
    const earlier = identities.slice(0, index);
    const named = entry.name && earlier.find((other) => other.name === entry.name);
    if (named) {
      lines.push(
        `${VARIABLE}: ${entry.title}: name is also that of ${named.title}; each connection needs a name of its own`,
      );
    }
    const sameHost = (other: Identity) => entry.host !== undefined && other.host === entry.host;
    const sameTokenUrl = (other: Identity) =>
      entry.tokenUrl !== undefined && other.tokenUrl === entry.tokenUrl;
    const shared =
      entry.clientId &&
      earlier.find(
        (other) => other.clientId === entry.clientId && (sameHost(other) || sameTokenUrl(other)),
      );
    if (shared) {
      const where = sameHost(shared) ? entry.host : `the token endpoint ${entry.tokenUrl}`;
      lines.push(
        `${VARIABLE}: ${entry.title}: clientId is also that of ${shared.title} at ${where}; one platform account is one connection (two would each spend the account's whole budget)`,
      );
    }
  });
  return lines;
}

/** ` (line 3, column 7)` from a JSON.parse error, or nothing when it gives no position. */
function jsonPosition(text: string, error: unknown): string {
  const position = /position (\d+)/.exec((error as Error).message)?.[1];
  if (position === undefined) return '';
  const before = text.slice(0, Number(position)).split('\n');
  return ` (line ${before.length}, column ${before.at(-1)!.length + 1})`;
}

/** `reader()`'s result, or its SecretFileError as a ConnectionsFileError. */
function read<T>(reader: () => T): T {
  try {
    return reader();
  } catch (error) {
    if (error instanceof SecretFileError) throw new ConnectionsFileError([error.message]);
    throw error;
  }
}
