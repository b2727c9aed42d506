// A second fold of one ladder's log on a thread of its own: `ranking whatif --from-store` folds
// the ladder as it is on the main thread and under its variant here, from the same batches of
// stored payloads, so the two folds share the machine's two cores.
import { parentPort, workerData } from 'node:worker_threads';
import type { LadderEvent } from '@ranking/contracts';
import { LadderFold } from '@ranking/rating';
import type { FoldWorkerData, FoldWorkerInput, FoldWorkerOutput } from './fold-worker-protocol.js';

const port = parentPort!;
const { ladder, annulments } = workerData as FoldWorkerData;
const fold = LadderFold.refolding(ladder, annulments);
let rejected = 0;
const post = (output: FoldWorkerOutput) => port.postMessage(output);

port.on('message', (input: FoldWorkerInput) => {
  try {
    if (typeof input !== 'string') {
      post({ players: [...fold.players.values()], accepted: fold.accepted, rejected });
      port.close();
      return;
    }
    for (
      let at = 0, end = input.indexOf('\n');
      end >= 0;
      at = end + 1, end = input.indexOf('\n', at)
    )
      if (fold.evolve(JSON.parse(input.slice(at, end)) as LadderEvent).status === 'rejected')
        rejected++;
  } catch (error) {
    post({ error: error instanceof Error ? error.message : String(error) });
    port.close();
  }
});
