import { EventStore1764400000000 } from './1764400000000-event-store.js';
import { LadderState1764500000000 } from './1764500000000-ladder-state.js';
import { OutboxBundles1764550000000 } from './1764550000000-outbox-bundles.js';
import { DropPlayerRatingIndex1764560000000 } from './1764560000000-drop-player-rating-index.js';
import { Maintenance1764600000000 } from './1764600000000-maintenance.js';
import { TournamentGames1764800000000 } from './1764800000000-tournament-games.js';
import { PlayerFillfactor1764900000000 } from './1764900000000-player-fillfactor.js';
import { JsonDocuments1765000000000 } from './1765000000000-json-documents.js';
import { OutboxBundleText1765100000000 } from './1765100000000-outbox-bundle-text.js';
import { EventTournamentColumn1765200000000 } from './1765200000000-event-tournament-column.js';
import { UnprocessableMessages1765300000000 } from './1765300000000-unprocessable-messages.js';
import { EventPayloadText1765400000000 } from './1765400000000-event-payload-text.js';
import { SkillAndStandings1765500000000 } from './1765500000000-skill-and-standings.js';
import { HistoryAsOfIndex1765550000000 } from './1765550000000-history-as-of-index.js';
import { HistoryByEvent1765600000000 } from './1765600000000-history-by-event.js';
import { LadderSnapshots1765700000000 } from './1765700000000-ladder-snapshots.js';
import { LastMessageSeq1765750000000 } from './1765750000000-last-message-seq.js';
import { HistoryEventInstantIndex1765800000000 } from './1765800000000-history-event-instant-index.js';
import { RedrivenDeadLetters1765900000000 } from './1765900000000-redriven-dead-letters.js';
import { HttpIngestion1766000000000 } from './1766000000000-http-ingestion.js';
import { TokenScopes1766100000000 } from './1766100000000-token-scopes.js';
import { Producers1766200000000 } from './1766200000000-producers.js';
import { IngestionHardening1766300000000 } from './1766300000000-ingestion-hardening.js';

/** Every migration, oldest first. Schema changes only ever go through these (never `synchronize`). */
export const MIGRATIONS = [
  EventStore1764400000000,
  LadderState1764500000000,
  OutboxBundles1764550000000,
  DropPlayerRatingIndex1764560000000,
  Maintenance1764600000000,
  TournamentGames1764800000000,
  PlayerFillfactor1764900000000,
  JsonDocuments1765000000000,
  OutboxBundleText1765100000000,
  EventTournamentColumn1765200000000,
  UnprocessableMessages1765300000000,
  EventPayloadText1765400000000,
  SkillAndStandings1765500000000,
  HistoryAsOfIndex1765550000000,
  HistoryByEvent1765600000000,
  LadderSnapshots1765700000000,
  LastMessageSeq1765750000000,
  HistoryEventInstantIndex1765800000000,
  RedrivenDeadLetters1765900000000,
  HttpIngestion1766000000000,
  TokenScopes1766100000000,
  Producers1766200000000,
  IngestionHardening1766300000000,
];

/** Exported for the test that migrates stored events down and up again. */
export { EventPayloadText1765400000000, EventTournamentColumn1765200000000 };
