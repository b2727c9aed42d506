import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

// Issue 42, item 5: no anonymous super user where it matters. What ships is read as it ships:
// Docker Compose's broker, the Kubernetes configuration (whose brokers are the platform's), and
// the local development broker of deploy/kafka/kafka.sh.

const ROOT = process.cwd();
const text = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface ComposeService {
  environment?: Record<string, string | number>;
  ports?: string[];
}

describe('shipped Kafka configurations: no unauthenticated way in but the local loopback', () => {
  const compose = parse(text('deploy/docker-compose.yml')) as {
    services: Record<string, ComposeService>;
  };
  const broker = compose.services.kafka!.environment!;

  it('Given Docker Compose’s broker, Then no listener is PLAINTEXT and the super user is admin alone', () => {
    const protocols = String(broker.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP)
      .split(',')
      .map((entry) => entry.split(':')[1]);
    expect(protocols).not.toContain('PLAINTEXT');
    expect(protocols.every((p) => p === 'SASL_SSL' || p === 'SASL_PLAINTEXT')).toBe(true);
    expect(String(broker.KAFKA_LISTENERS)).not.toMatch(/PLAINTEXT:\/\//);
    expect(String(broker.KAFKA_SUPER_USERS).split(';')).toEqual(['User:admin']);
    expect(String(broker.KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND)).toBe('false');
    // The controller listener (SASL_PLAINTEXT) stays inside the container.
    expect(String(broker.KAFKA_LISTENERS)).toMatch(/CONTROLLER:\/\/localhost:/);
    expect(compose.services.kafka!.ports ?? []).toEqual([]);
  });

  it('Given the Kubernetes configuration, Then every workload reaches the brokers over TLS', () => {
    const config = parse(text('deploy/k8s/configmap.yaml')) as { data: Record<string, string> };
    expect(config.data.KAFKA_SSL).toBe('true');
    expect(config.data.KAFKA_BROKERS).not.toMatch(/:9092\b/);
    for (const file of ['secret.yaml', 'configmap.yaml'])
      expect(text(`deploy/k8s/${file}`)).not.toMatch(/ANONYMOUS/);
  });

  it('Given the local development broker, Then its PLAINTEXT and controller listeners are on the loopback only', () => {
    const script = text('deploy/kafka/kafka.sh');
    expect(script).toMatch(/^LOCAL_BROKER="127\.0\.0\.1:/m);
    expect(script).toMatch(/^CONTROLLER_ADDR="127\.0\.0\.1:/m);
    expect(script).toMatch(/^SASL_BROKER="127\.0\.0\.1:/m);
  });
});
