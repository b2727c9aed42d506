import { Injectable, type OnModuleDestroy } from '@nestjs/common';

/**
 * Whether the service is shutting down. Nest calls `onModuleDestroy` first on SIGTERM, before
 * any work stops, so readiness turns 503 while the batch under way finishes.
 */
@Injectable()
export class ServiceLifecycle implements OnModuleDestroy {
  stopping = false;

  onModuleDestroy(): void {
    this.stopping = true;
  }
}
