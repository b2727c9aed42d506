import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** What a PEM file a variable names must hold: certificates (a CA bundle, or a certificate and its chain) or a key. */
export type PemContent = 'certificates' | 'private key';

const CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

type Read<T> = { value: T; problem?: undefined } | { value?: undefined; problem: string };

function readText(path: string): Read<string> {
  try {
    return { value: readFileSync(path, 'utf8') };
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { problem: `cannot be read (${code ?? message})` };
  }
}

function readCertificates(path: string): Read<X509Certificate[]> {
  const text = readText(path);
  if (text.problem !== undefined) return text;
  const blocks = text.value.match(CERTIFICATE) ?? [];
  if (blocks.length === 0) return { problem: 'holds no PEM certificate' };
  try {
    return { value: blocks.map((block) => new X509Certificate(block)) };
  } catch {
    return { problem: 'holds a PEM certificate that does not parse' };
  }
}

function readPrivateKey(path: string): Read<KeyObject> {
  const text = readText(path);
  if (text.problem !== undefined) return text;
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text.value))
    return { problem: 'holds no PEM private key' };
  if (text.value.includes('ENCRYPTED')) return { problem: 'holds an encrypted private key' };
  try {
    return { value: createPrivateKey(text.value) };
  } catch {
    return { problem: 'holds a PEM private key that does not parse' };
  }
}

/**
 * What is wrong with the PEM file at `path` (one phrase, never its content), or undefined when
 * it is readable and holds the `content`.
 */
export function pemFileProblem(path: string, content: PemContent): string | undefined {
  if (content === 'private key') return readPrivateKey(path).problem;
  return readCertificates(path).problem;
}

/** Whether the private key at `keyPath` is the key of the (first) certificate at `certificatePath`. */
export function keyMatchesCertificate(keyPath: string, certificatePath: string): boolean {
  const key = readPrivateKey(keyPath).value;
  const [certificate] = readCertificates(certificatePath).value ?? [];
  return key !== undefined && certificate !== undefined && certificate.checkPrivateKey(key);
}
