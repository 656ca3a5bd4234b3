import { describe, expect, it } from 'vitest';
import { roleAllows, SignInRequestSchema, USERNAME_PATTERN } from './session';

describe('roleAllows', () => {
  it('lets every role use what has no restriction', () => {
    expect(roleAllows('support', undefined)).toBe(true);
    expect(roleAllows('admin', undefined)).toBe(true);
  });

  it('keeps admin-only things from support', () => {
    expect(roleAllows('admin', ['admin'])).toBe(true);
    expect(roleAllows('support', ['admin'])).toBe(false);
    expect(roleAllows('support', [])).toBe(false);
  });

  it('lets a person without a console-wide role use no console-wide page, even an open one', () => {
    expect(roleAllows(undefined, undefined)).toBe(false);
    expect(roleAllows(undefined, ['admin', 'auditor', 'support'])).toBe(false);
  });
});

describe('usernames and sign-in bodies', () => {
  it.each(['admin', 'j.doe', 'ops-2', 'a_b'])('accepts the name %j', (name) => {
    expect(USERNAME_PATTERN.test(name)).toBe(true);
  });

  it.each(['', '.hidden', 'Admin', 'a b', 'a\nb', '<script>', 'a'.repeat(65)])(
    'refuses the name %j',
    (name) => {
      expect(USERNAME_PATTERN.test(name)).toBe(false);
    },
  );

  it('bounds the password so a huge body cannot make the server hash megabytes', () => {
    expect(
      SignInRequestSchema.safeParse({ username: 'a', password: 'x'.repeat(1024) }).success,
    ).toBe(true);
    expect(
      SignInRequestSchema.safeParse({ username: 'a', password: 'x'.repeat(1025) }).success,
    ).toBe(false);
  });
});
