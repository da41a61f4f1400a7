import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { ProcessorsService } from '../../../../projections/processors.service';
import { SearchPage } from './search-listings.query';

const CATALOG_PROJECTION = 'catalog';

/**
 * Answers repeated searches from memory while the catalogue is unchanged.
 * The catalogue's version is the catalog projection's checkpoint: any event it
 * applies (a listing edit, an install, a review) makes every cached page stale.
 * This process learns of its own runner's progress at once; progress made in
 * other processes is looked up at most once per SEARCH_CACHE_MS.
 */
@Injectable()
export class SearchCache {
  private readonly pages = new LRUCache<string, { version: string; page: SearchPage }>({ max: 2_000 });
  private version: { value: string; checkedAt: number } | null = null;
  private lookup: Promise<string> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
    processors: ProcessorsService,
  ) {
    for (const runner of processors.runners) {
      if (runner.name === CATALOG_PROJECTION) runner.onProgress(() => (this.version = null));
    }
  }

  async page(key: string, compute: () => Promise<SearchPage>): Promise<SearchPage> {
    if (this.config.searchCacheMs === 0) return compute();
    const version = await this.currentVersion();
    const cached = this.pages.get(key);
    if (cached?.version === version) return cached.page;
    const page = await compute();
    this.pages.set(key, { version, page });
    return page;
  }

  private currentVersion(): Promise<string> {
    if (this.version && Date.now() - this.version.checkedAt < this.config.searchCacheMs)
      return Promise.resolve(this.version.value);
    // Concurrent requests share one lookup.
    this.lookup ??= this.dataSource
      .query(
        "SELECT commit_position::text || '/' || prepare_position::text AS version FROM processor_checkpoints WHERE name = $1",
        [CATALOG_PROJECTION],
      )
      .then(([row]: { version: string }[]) => {
        this.version = { value: row?.version ?? 'none', checkedAt: Date.now() };
        return this.version.value;
      })
      .finally(() => (this.lookup = null));
    return this.lookup;
  }
}
