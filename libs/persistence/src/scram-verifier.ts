import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

/**
 * A PostgreSQL SCRAM-SHA-256 password verifier (what `pg_authid.rolpassword` holds), made here as
 * psql's \password and libpq's PQencryptPasswordConn make it, so that `ALTER ROLE ... PASSWORD`
 * never carries the password itself to the server (nor to its log). PostgreSQL prepares a
 * password with SASLprep first, which changes nothing in printable ASCII, the only passwords
 * the configuration accepts.
 */
export function scramSha256Verifier(
  password: string,
  salt: Buffer = randomBytes(16),
  iterations = 4096,
): string {
  const salted = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, 32, 'sha256');
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest();
  const serverKey = hmac(salted, 'Server Key');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
