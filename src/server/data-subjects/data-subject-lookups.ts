// Runs one data-subject operation of the catalog: checks its parameters before anything is sent,
// puts each one where the catalog says it travels (header, path or query), sends it through the
// governed upstream client, and reads the answer with the operation's documented schema. A 404 is
// "not found" only in the platform's documented not-found shape; any other 404 means the console
// asked for a path the platform does not have, and says so.
import {
  CONTINUATION_MAX_LENGTH,
  DATA_SUBJECT_PROBLEM_TYPES,
  type DataSubjectOperation,
} from '../../shared/data-subject-operations';
import { isDocumentedNotFound } from '../../shared/data-subject-contract';
import {
  answerSchemaOf,
  type LookupRequest,
  type LookupResponse,
} from '../../shared/data-subject-lookups';
import { checkLookupParams } from '../../shared/data-subject-validation';
import { HttpProblem, invalidParameter } from '../http/problem';
import type { UpstreamCall, UpstreamClient } from '../upstream/upstream-client';
import {
  invalidUpstreamAnswerProblem,
  problemForUpstreamAnswer,
} from '../upstream/upstream-problems';

// Printable ASCII without surrounding spaces: an opaque token from the upstream goes back exactly
// as it came. The documents' example is a small JSON text ('{"compositeToken": "…"}'), so inner
// spaces and quotes are allowed; controls and non-ASCII (header injection, mangling) are not.
const CONTINUATION = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** The 400 for a lookup whose parameters are not acceptable; `errors` has them all by name. */
export function invalidLookupProblem(errors: Record<string, string>): HttpProblem {
  const [parameter, message] = Object.entries(errors)[0] ?? ['params', 'are invalid'];
  return invalidParameter(parameter, message, {
    title: 'The lookup’s parameters are not valid',
    extra: { errors },
  });
}

/** 404 in the documented shape: the platform says it has no such data subject, group or purpose. */
function notFoundProblem(operation: DataSubjectOperation): HttpProblem {
  const byPurpose = operation.params.some(
    (param) => param.name === 'purposeGuid' && param.required,
  );
  const byGroup = operation.params.some(
    (param) => param.name === 'linkedIdentityGroupId' && param.required,
  );
  return new HttpProblem({
    type: DATA_SUBJECT_PROBLEM_TYPES.notFound,
    // The platform's one not-found answer does not say which was missing. Asked for one purpose,
    // it is most often the purpose (a GUID copied from elsewhere), so the title names it and the
    // detail keeps the other possibility.
    title: byGroup
      ? 'No linked identity group with this id'
      : byPurpose
        ? 'No record of this purpose for this data subject'
        : 'No data subject with this identifier',
    status: 404,
    detail: byPurpose
      ? 'The privacy platform answered that this data subject has no record of this purpose, or knows no data subject with this identifier. Check the purpose GUID first.'
      : 'The privacy platform answered that it has no such record.',
    upstreamStatus: 404,
  });
}

/**
 * 404 without the documented not-found answer: the platform does not know the path (a wrong base
 * URL, a catalog override, a proxy in between). Names the operation and its path (the template,
 * never a filled-in value); never says "not found", because the platform never looked.
 */
function operationUnavailableProblem(operation: DataSubjectOperation): HttpProblem {
  return new HttpProblem({
    type: DATA_SUBJECT_PROBLEM_TYPES.operationUnavailable,
    title: 'The privacy platform does not offer this operation at the address the console used',
    status: 502,
    detail: `The platform answered “${operation.title}” (${operation.method} ${operation.path}) with 404 but not with its “not found” message, so it did not look for the data subject. An administrator should check the console’s platform address and operation settings.`,
    upstreamStatus: 404,
    operation: operation.id,
    path: `${operation.method} ${operation.path}`,
  });
}

function headerOf(headers: Record<string, string | string[] | undefined>, name: string) {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface DataSubjectLookupsOptions {
  /** The catalog, overrides applied (operations-file.ts). */
  readonly operations: readonly DataSubjectOperation[];
  readonly upstream: UpstreamClient;
  readonly now: () => number;
}

/** The checked form of a lookup, ready to send. */
export interface PreparedLookup {
  readonly operation: DataSubjectOperation;
  readonly call: UpstreamCall;
  readonly continued: boolean;
}

/** Runs lookups against the upstream. */
export class DataSubjectLookups {
  readonly operations: readonly DataSubjectOperation[];
  readonly #upstream: UpstreamClient;
  readonly #now: () => number;

  constructor(options: DataSubjectLookupsOptions) {
    this.operations = options.operations;
    this.#upstream = options.upstream;
    this.#now = options.now;
  }

  /** The operation `id`, if the catalog has it. */
  find(id: string): DataSubjectOperation | undefined {
    return this.operations.find((operation) => operation.id === id);
  }

  /** The contract's schema of operation `id`'s answer (what the audit walks it with). */
  answerSchema(id: string): unknown {
    const operation = this.find(id);
    return operation ? answerSchemaOf(operation) : undefined;
  }

  /** Checks `request` and builds its upstream call; throws a 400 HttpProblem, sending nothing. */
  prepare(request: LookupRequest): PreparedLookup {
    const operation = this.find(request.operation);
    if (!operation) {
      throw invalidLookupProblem({ operation: 'is not an operation of the catalog' });
    }
    const { values, errors } = checkLookupParams(operation, request.params ?? {});
    if (request.continuation !== undefined) {
      if (!operation.continuation) errors.continuation = 'this operation does not page';
      else if (!CONTINUATION.test(request.continuation)) {
        errors.continuation = 'is not a continuation token the platform issued';
      }
    }
    if (Object.keys(errors).length > 0) throw invalidLookupProblem(errors);

    const pathParams: Record<string, string> = {};
    const query: Array<[string, string]> = [];
    const headers: Record<string, string> = {};
    const place = (location: string, wireName: string, value: string) => {
      if (location === 'path') pathParams[wireName] = value;
      else if (location === 'query') query.push([wireName, value]);
      else headers[wireName] = value;
    };
    for (const param of operation.params) {
      const value = values[param.name];
      if (value !== undefined) place(param.location, param.wireName, value);
    }
    if (request.continuation !== undefined && operation.continuation) {
      place(operation.continuation.location, operation.continuation.wireName, request.continuation);
    }
    return {
      operation,
      call: { pathParams, query, headers },
      continued: request.continuation !== undefined,
    };
  }

  /** Sends a prepared lookup; resolves to the answer, or throws an HttpProblem. */
  async send({ operation, call }: PreparedLookup): Promise<LookupResponse> {
    const response = await this.#upstream.send(
      { id: operation.id, method: operation.method, path: operation.path },
      call,
    );
    if (response.status === 404) {
      throw isDocumentedNotFound(headerOf(response.headers, 'content-type'), response.body)
        ? notFoundProblem(operation)
        : operationUnavailableProblem(operation);
    }
    if (response.status !== 200) throw problemForUpstreamAnswer(response, this.#now());
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      throw invalidUpstreamAnswerProblem();
    }
    const schema = answerSchemaOf(operation);
    const parsed = schema?.safeParse(body);
    if (!parsed?.success) throw invalidUpstreamAnswerProblem();
    const data = parsed.data as Record<string, unknown>;
    // The next page exists until the slice says `last`; its token is the way to ask for it.
    const token =
      operation.continuation && !Array.isArray(data) && data.last !== true
        ? data[operation.continuation.responseField]
        : undefined;
    return {
      operation: operation.id,
      data,
      // A token the console could not send back would strand the listing: leave it out.
      ...(typeof token === 'string' &&
      CONTINUATION.test(token) &&
      token.length <= CONTINUATION_MAX_LENGTH
        ? { continuation: token }
        : {}),
      fetchedAt: new Date(this.#now()).toISOString(),
    };
  }
}
