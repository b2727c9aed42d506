import { createTopic, deleteTopic, testKafka, uniqueName } from '../support/kafka.js';
import { waitFor } from '../support/wait-for.js';

describe('Kafka (real broker)', () => {
  const topic = uniqueName('smoke');
  beforeAll(() => createTopic(topic));
  afterAll(() => deleteTopic(topic));

  it('given a produced message, when a consumer group reads the topic, then it gets the message back', async () => {
    const kafka = testKafka();
    const producer = kafka.producer();
    const consumer = kafka.consumer({ groupId: uniqueName('smoke-group') });
    await producer.connect();
    await consumer.connect();
    const received: { key: string | undefined; value: string | undefined }[] = [];
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: ({ message }) => {
          received.push({ key: message.key?.toString(), value: message.value?.toString() });
          return Promise.resolve();
        },
      });
      await producer.send({
        topic,
        messages: [{ key: 'igame-gomoku', value: '{"hello":"kafka"}' }],
      });
      await waitFor(() => received.length > 0, { what: 'the message to come back' });
      expect(received).toEqual([{ key: 'igame-gomoku', value: '{"hello":"kafka"}' }]);
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
    }
  });
});
