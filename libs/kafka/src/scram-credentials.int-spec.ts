import { randomBytes } from 'node:crypto';
import {
  deleteScramUser,
  describeScramUsers,
  errorChain,
  ScramCredentialsError,
  upsertScramUser,
} from '@ranking/kafka';
import {
  describeKafkaError,
  principalKafka,
  TEST_ENV,
  uniqueName,
  waitFor,
} from '@ranking/testing';
import { Kafka, logLevel } from 'kafkajs';

const newPassword = () => randomBytes(18).toString('base64url');

/**
 * Logs in as `username` on the SASL listener and asks for the cluster's metadata (which needs
 * no grant): true, or 'refused' where the broker refused the login, or else what failed.
 */
async function login(username: string, password: string): Promise<true | string> {
  const admin = new Kafka({
    clientId: `test-login-${username}`,
    brokers: TEST_ENV.kafkaSaslBrokers.split(','),
    sasl: { mechanism: 'scram-sha-512', username, password },
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
    return true;
  } catch (error) {
    const refused = errorChain(error).some(
      (e) => (e as Error | null)?.name === 'KafkaJSSASLAuthenticationError',
    );
    return refused ? 'refused' : describeKafkaError(error);
  } finally {
    await admin.disconnect();
  }
}

/** What the call failed with (it must fail). */
async function failure(call: () => Promise<unknown>): Promise<ScramCredentialsError> {
  try {
    await call();
  } catch (error) {
    return error as ScramCredentialsError;
  }
  throw new Error('the call succeeded');
}

const sha512 = (iterations: number) => [{ mechanism: 'SCRAM-SHA-512', iterations }];

describe('SCRAM users administered at run time', () => {
  const admin = principalKafka('admin');
  const users: string[] = [];
  const newUser = (prefix: string) => {
    const user = uniqueName(prefix);
    users.push(user);
    return user;
  };

  afterAll(async () => {
    for (const user of users) await deleteScramUser(admin, user);
  });

  it('the admin creates a user who logs in with its password, changes the password, lists and deletes the user', async () => {
    const user = newUser('scram-user');
    const first = newPassword();
    await upsertScramUser(admin, user, first);
    await waitFor(async () => (await login(user, first)) === true, {
      what: `${user} logging in with its first password`,
    });
    await waitFor(
      async () =>
        JSON.stringify(await describeScramUsers(admin, [user])) ===
        JSON.stringify([{ user, credentials: sha512(8192) }]),
      { what: `${user} described with 8192 iterations` },
    );

    const second = newPassword();
    await upsertScramUser(admin, user, second, 4096);
    await waitFor(async () => (await login(user, second)) === true, {
      what: `${user} logging in with its second password`,
    });
    // One credential per user and mechanism: once the new one logs in, the old one is gone.
    expect(await login(user, first)).toBe('refused');
    await waitFor(
      async () =>
        JSON.stringify(await describeScramUsers(admin, [user])) ===
        JSON.stringify([{ user, credentials: sha512(4096) }]),
      { what: `${user} described with 4096 iterations` },
    );

    // No names (or none given) lists every user, the system's principals among them.
    for (const all of [await describeScramUsers(admin), await describeScramUsers(admin, [])]) {
      const names = all.map((u) => u.user);
      expect(names).toEqual(expect.arrayContaining([user, 'admin', 'ops']));
    }
    // A named user without credentials is left out of the answer, not an error.
    expect(await describeScramUsers(admin, [user, `${user}-nobody`, user])).toEqual([
      { user, credentials: sha512(4096) },
    ]);

    expect(await deleteScramUser(admin, user)).toBe(true);
    await waitFor(async () => (await login(user, second)) === 'refused', {
      what: `${user} refused once deleted`,
    });
    await waitFor(async () => (await describeScramUsers(admin, [user])).length === 0, {
      what: `${user} no longer described`,
    });
    // Deleting a user that is already gone is no error.
    expect(await deleteScramUser(admin, user)).toBe(false);
  });

  it('a principal that is not the admin may neither create, change, delete nor list SCRAM users', async () => {
    const ops = principalKafka('ops');
    const user = newUser('scram-guarded');
    const password = newPassword();
    await upsertScramUser(admin, user, password);
    await waitFor(async () => (await login(user, password)) === true, {
      what: `${user} logging in`,
    });

    const refusals = [
      await failure(() => upsertScramUser(ops, newUser('scram-denied'), newPassword())),
      await failure(() => upsertScramUser(ops, user, newPassword())),
      await failure(() => deleteScramUser(ops, user)),
      await failure(() => describeScramUsers(ops, [user])),
    ];
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(ScramCredentialsError);
      expect(refusal).toMatchObject({ type: 'CLUSTER_AUTHORIZATION_FAILED', retriable: false });
      expect(refusal.message).toContain('may not administer SCRAM credentials');
    }
    expect(refusals[1]?.message).toContain(`for user "${user}"`);

    // The refused change and deletion changed nothing.
    expect(await login(user, password)).toBe(true);
    expect(await describeScramUsers(admin, [user])).toEqual([{ user, credentials: sha512(8192) }]);
  });

  it('a credential the broker will not accept is refused, and not retriable', async () => {
    const user = newUser('scram-weak');
    const error = await failure(() => upsertScramUser(admin, user, newPassword(), 1000));
    expect(error).toBeInstanceOf(ScramCredentialsError);
    expect(error).toMatchObject({ type: 'UNACCEPTABLE_CREDENTIAL', code: 93, retriable: false });
    expect(error.message).toContain('Too few iterations');
    expect(await describeScramUsers(admin, [user])).toEqual([]);
  });
});
