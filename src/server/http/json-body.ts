// Reading a JSON request body and naming what is wrong with it: the body routes share these, so
// every one answers a bad body with the same 400, naming the field at fault.
import { invalidParameter, type HttpProblem } from './problem';

/** The 400 for a body field that is not acceptable. */
export function invalidBody(parameter: string, detail: string): HttpProblem {
  return invalidParameter(parameter, detail, { title: 'The request is not valid' });
}

/** The request's body as JSON, or a 400 naming the body. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text());
  } catch {
    throw invalidBody('body', 'must be a JSON object');
  }
}

/**
 * The 400 for a schema's first complaint about a body, naming the field by its path; an unknown
 * field of a strict object is named itself.
 */
export function firstIssue(error: {
  issues: ReadonlyArray<{
    path: PropertyKey[];
    message: string;
    code?: string;
    keys?: readonly string[];
  }>;
}): HttpProblem {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys' && issue.keys?.[0] !== undefined) {
    return invalidBody([...issue.path, issue.keys[0]].map(String).join('.'), 'unknown field');
  }
  return invalidBody(issue?.path.map(String).join('.') || 'body', issue?.message ?? 'is not valid');
}
