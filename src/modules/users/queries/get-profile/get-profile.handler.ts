import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../../platform/errors/domain-error';
import { GetProfileQuery, UserProfile } from './get-profile.query';

@QueryHandler(GetProfileQuery)
export class GetProfileHandler implements IQueryHandler<GetProfileQuery, UserProfile> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ userId }: GetProfileQuery): Promise<UserProfile> {
    const [row] = await this.dataSource.query(
      'SELECT id, email, name, avatar_url, email_verified, created_at FROM users WHERE id = $1 AND deleted_at IS NULL',
      [userId],
    );
    if (!row) throw new DomainError('not_found', 'User not found');
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      avatarUrl: row.avatar_url,
      emailVerified: row.email_verified,
      createdAt: new Date(row.created_at).toISOString(),
    };
  }
}
