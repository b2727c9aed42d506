import type { Admin } from 'kafkajs';
import { ensureTopics, producerTopicLayout, topicLayout } from './topic-setup.js';

const adminWith = (existing: string[], createTopics: () => Promise<boolean>) =>
  ({ listTopics: () => Promise.resolve(existing), createTopics }) as unknown as Admin;

describe('producerTopicLayout', () => {
  it('gives a producer its intake topic and its rejection topic, under the contract’s names', () => {
    expect(producerTopicLayout('gomoku-eu-1', 'p.').map((t) => t.topic)).toEqual([
      'p.ranking.game-results.gomoku-eu-1',
      'p.ranking.game-results.rejected.gomoku-eu-1',
    ]);
  });
});

describe('ensureTopics', () => {
  it('creates only the missing topics', async () => {
    const created: string[] = [];
    const admin = {
      listTopics: () => Promise.resolve(['p.ranking.ladder-events']),
      createTopics: ({ topics }: { topics: { topic: string }[] }) => {
        created.push(...topics.map((t) => t.topic));
        return Promise.resolve(true);
      },
    } as unknown as Admin;
    const missing = ['p.ranking.rating-changes', 'p.ranking.dead-letter'];
    expect(await ensureTopics(admin, topicLayout('p.'))).toEqual(missing);
    expect(created).toEqual(missing);
  });

  it('says to run `ranking setup` when the principal may not create them', async () => {
    // kafkajs's KafkaJSAggregateError: one error per topic, each with the broker's type.
    const refused = Object.assign(new Error('Topic creation errors'), {
      errors: [{ type: 'TOPIC_AUTHORIZATION_FAILED' }, { type: 'TOPIC_AUTHORIZATION_FAILED' }],
    });
    const admin = adminWith([], () => Promise.reject(refused));
    await expect(ensureTopics(admin, topicLayout('p.').slice(0, 2))).rejects.toThrow(
      'topics p.ranking.ladder-events, p.ranking.rating-changes are missing or not visible to this principal, which may not create them: run `ranking setup` as the admin principal and check the ACLs (TOPIC_AUTHORIZATION_FAILED: Topic creation errors)',
    );
  });

  it('passes other failures on', async () => {
    const admin = adminWith([], () => Promise.reject(new Error('broker gone')));
    await expect(ensureTopics(admin, topicLayout())).rejects.toThrow('broker gone');
  });
});
