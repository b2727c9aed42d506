import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import kafkajs from 'kafkajs';
import { scramCredentialsError } from './scram-credentials.js';
import {
  decodeAlterScramCredentials,
  decodeDescribeScramCredentials,
  encodeAlterScramCredentials,
  encodeDescribeScramCredentials,
  scramSha512SaltedPassword,
} from './scram-credentials-wire.js';

// The SCRAM client kafkajs logs in with: its Hi() must agree with the credential written here.
const require = createRequire(import.meta.url);
const { SCRAM, DIGESTS } = require('kafkajs/src/broker/saslAuthenticator/scram.js') as {
  SCRAM: {
    hi(password: string, salt: Buffer, iterations: number, digest: object): Promise<Buffer>;
  };
  DIGESTS: { SHA512: object };
};

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('SCRAM-SHA-512 SaltedPassword', () => {
  it('is PBKDF2-HMAC-SHA-512 with one 64-byte block (the published test vectors)', async () => {
    const salt = Buffer.from('salt');
    expect((await scramSha512SaltedPassword('password', salt, 1)).toString('hex')).toBe(
      '867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252' +
        'c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce',
    );
    expect((await scramSha512SaltedPassword('password', salt, 2)).toString('hex')).toBe(
      'e1d9c16aa681708a45f5c7c4e215ceb66e011a2e9f0040713f18aefdb866d53c' +
        'f76cab2868a39b9f7840edce4fef5a82be67335c77a6068e04112754f27ccf4e',
    );
  });

  it('is what kafkajs computes when it logs in with the password and the salt', async () => {
    const salt = randomBytes(32);
    const password = `pw-${randomBytes(8).toString('hex')}-é`;
    expect(await scramSha512SaltedPassword(password, salt, 4096)).toEqual(
      await SCRAM.hi(password, salt, 4096, DIGESTS.SHA512),
    );
  });
});

describe('AlterUserScramCredentials v0', () => {
  it('writes the header tag byte, then compact arrays of tagged structures', () => {
    const body = encodeAlterScramCredentials(
      [{ user: 'old', mechanism: 2 }],
      [
        {
          user: 'gs-1',
          mechanism: 2,
          iterations: 8192,
          salt: Buffer.from([0xaa, 0xbb]),
          saltedPassword: Buffer.from([0x01, 0x02, 0x03]),
        },
      ],
    ).buffer;
    expect(body).toEqual(
      hex(`
        00
        02  04 6f6c64  02  00
        02  05 67732d31  02  00002000  03 aabb  04 010203  00
        00`),
    );
  });

  it('reads the results after the response header tagged fields, skipping tagged fields', () => {
    const payload = hex(`
      01  07 02 beef
      00000005
      03
        02 61  0000  00  00
        02 62  005d  13 546f6f2066657720697465726174696f6e73  01 00 01 ff
      00`);
    expect(decodeAlterScramCredentials(payload)).toEqual({
      throttleTimeMs: 5,
      results: [
        { user: 'a', errorCode: 0, errorMessage: null },
        { user: 'b', errorCode: 93, errorMessage: 'Too few iterations' },
      ],
    });
  });
});

describe('DescribeUserScramCredentials v0', () => {
  it('writes the users as a compact array; none asks for all (never a null array)', () => {
    expect(encodeDescribeScramCredentials(['ab']).buffer).toEqual(hex('00 02 03 6162 00 00'));
    expect(encodeDescribeScramCredentials([]).buffer).toEqual(hex('00 01 00'));
  });

  it('reads the top-level error, the users and their mechanisms', () => {
    const payload = hex(`
      00
      00000000
      0000  00
      03
        02 61  0000  00  03  02 00001000 00  01 00002000 00  00
        02 62  005b  00  01  00
      00`);
    expect(decodeDescribeScramCredentials(payload)).toEqual({
      throttleTimeMs: 0,
      errorCode: 0,
      errorMessage: null,
      results: [
        {
          user: 'a',
          errorCode: 0,
          errorMessage: null,
          credentials: [
            { mechanism: 'SCRAM-SHA-512', iterations: 4096 },
            { mechanism: 'SCRAM-SHA-256', iterations: 8192 },
          ],
        },
        { user: 'b', errorCode: 91, errorMessage: null, credentials: [] },
      ],
    });
  });
});

describe('scramCredentialsError', () => {
  const { KafkaJSError } = kafkajs;

  it.each([
    [31, 'CLUSTER_AUTHORIZATION_FAILED', false],
    [33, 'UNSUPPORTED_SASL_MECHANISM', false],
    [91, 'RESOURCE_NOT_FOUND', false],
    [92, 'DUPLICATE_RESOURCE', false],
    [93, 'UNACCEPTABLE_CREDENTIAL', false],
    [41, 'NOT_CONTROLLER', true],
    [7, 'REQUEST_TIMED_OUT', true],
    [89, 'THROTTLING_QUOTA_EXCEEDED', true],
  ])('code %i is %s, retriable %s', (code, type, retriable) => {
    const error = scramCredentialsError('AlterUserScramCredentials', 'gs-1', code, null);
    expect(error).toBeInstanceOf(KafkaJSError);
    expect(error).toMatchObject({ type, code, retriable, user: 'gs-1' });
    expect(error.message).toContain(`AlterUserScramCredentials for user "gs-1": ${type}`);
  });

  it('says what the principal lacks when the cluster refuses it', () => {
    const error = scramCredentialsError('AlterUserScramCredentials', 'gs-1', 31, null);
    expect(error.message).toContain('ALTER');
    expect(error.message).toContain('on the cluster');
  });

  it("keeps the broker's sentence, and leaves a dump of the request out of the message", () => {
    const says = scramCredentialsError('X', 'u', 93, 'Too few iterations');
    expect(says.message).toContain('(Too few iterations)');
    const dump = `Request Request(processor=0, ${'x'.repeat(300)}) is not authorized.`;
    const error = scramCredentialsError('X', 'u', 31, dump);
    expect(error.message).toContain('(Cluster authorization failed)');
    expect(error.brokerMessage).toBe(dump);
  });

  it('names an unknown code, non-retriable', () => {
    expect(scramCredentialsError('X', null, 999, null)).toMatchObject({
      type: 'UNKNOWN_ERROR_CODE_999',
      retriable: false,
    });
  });
});
