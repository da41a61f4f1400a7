import { Query } from '@nestjs/cqrs';
import { SearchResult } from '../../read-models/listing-rows';

export const SEARCH_SORTS = ['popular', 'recent', 'rated', 'price_asc', 'price_desc', 'trusted'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** What a search asks for, validated at the edge (see SearchParamsDto for each field's meaning). */
export interface SearchCriteria {
  q?: string;
  type?: string;
  target?: string;
  sort?: SearchSort;
  free?: boolean;
  tool?: string;
  tags?: string;
  live?: boolean;
  protocol?: string;
  settlement?: string;
  verified?: boolean;
  cursor?: string;
  page?: number;
  per_page?: number;
}

export interface SearchPage {
  results: SearchResult[];
  total: number | null;
  page: number | null;
  perPage: number;
  nextCursor: string | null;
}

export class SearchListingsQuery extends Query<SearchPage> {
  constructor(readonly criteria: SearchCriteria) {
    super();
  }
}
