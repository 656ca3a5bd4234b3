// Route tests check a refusal the way the browser reads it: status, problem+json, and the body.
import { expect } from 'vitest';

/** Asserts `response` is a problem+json answer with `status` whose body has `fields`. */
export async function expectProblem(
  response: Response,
  status: number,
  fields: Record<string, unknown>,
): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(await response.json()).toMatchObject(fields);
}
