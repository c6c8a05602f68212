// hashPassword says what it got (issue 45.4): docs/auth.md's login snippet hashed `process.env.ADMIN_PASSWORD!`,
// and with the variable unset the process ended at start with "Cannot read properties of undefined (reading
// 'normalize')" from inside password.ts.

import { hashPassword, verifyPassword } from '../../core/index.ts';

test.each<[string, unknown, string]>([
  [
    'undefined (an unset environment variable)',
    undefined,
    'hashPassword(): the password is undefined, not a string (an environment variable that is not set?)',
  ],
  ['a number', 1234, 'hashPassword(): the password is a number, not a string'],
  ['null', null, 'hashPassword(): the password is null, not a string'],
])('hash-password-says-what-it-got: %s', async (_name, value, message) => {
  await expect(hashPassword(value as string)).rejects.toThrow(new TypeError(message));
});

test('verifyPassword says so too, and a string still hashes and verifies', async () => {
  const hash = await hashPassword('correct horse');
  await expect(verifyPassword(undefined as unknown as string, hash)).rejects.toThrow(
    'verifyPassword(): the password is undefined, not a string',
  );
  await expect(verifyPassword('correct horse', hash)).resolves.toBe(true);
});
