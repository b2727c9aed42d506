import { Injectable } from '@nestjs/common';
import type { BoardHead } from '@ranking/redis';
import { LRUCache } from 'lru-cache';
import type { PageCursor } from './page-cursor.js';

/** What the cache may hold at most, in bytes of encoded answers. */
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * Encoded answers of daily-board pages. A daily board's version never changes once switched
 * in (a rebuild writes a new version), so a page of a version is encoded once and served as
 * bytes after that; the key names everything the answer depends on. Live pages are not cached.
 */
@Injectable()
export class DailyPageCache {
  private readonly pages = new LRUCache<string, Buffer>({
    maxSize: MAX_BYTES,
    sizeCalculation: (body) => body.length,
  });

  static key(
    ladder: string,
    head: BoardHead,
    cursor: PageCursor | null,
    limit: number,
    position = 0,
  ): string {
    return JSON.stringify([
      ladder,
      head.name,
      head.version,
      cursor?.member,
      cursor?.score,
      limit,
      position,
    ]);
  }

  get(key: string): Buffer | undefined {
    return this.pages.get(key);
  }

  set(key: string, body: Buffer): void {
    this.pages.set(key, body);
  }
}
