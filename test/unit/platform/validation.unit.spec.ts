import { ArgumentMetadata, Type } from '@nestjs/common';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { CreateTokenDto } from '../../../src/modules/auth/commands/create-token/create-token.dto';
import { PostReviewDto } from '../../../src/modules/catalog/commands/post-review/post-review.dto';
import { UpdateListingDto } from '../../../src/modules/catalog/commands/update-listing/update-listing.dto';
import { ChangeOrgProfileDto } from '../../../src/modules/orgs/commands/change-org-profile/change-org-profile.dto';
import { CreatePolicyDto } from '../../../src/modules/policies/commands/create-policy/create-policy.dto';
import { UpdatePolicyDto } from '../../../src/modules/policies/commands/update-policy/update-policy.dto';
import { ChangeProfileDto } from '../../../src/modules/users/commands/change-profile/change-profile.dto';
import { SaveVendorProfileDto } from '../../../src/modules/vendors/commands/save-vendor-profile/save-vendor-profile.dto';
import { DomainError } from '../../../src/platform/errors/domain-error';
import { Clearable, createValidationPipe, Optional } from '../../../src/platform/http/validation';

class Sample {
  @IsInt()
  required: number;

  /** class-validator's own: it would skip null as if the field were left out. */
  @IsOptional()
  @IsString()
  loose?: string;

  @Optional()
  @IsString()
  strict?: string;

  @Clearable()
  @IsString()
  clearable?: string | null;
}

describe('body validation and null', () => {
  const pipe = createValidationPipe();
  const asBody = (metatype: Type): ArgumentMetadata => ({ type: 'body', metatype });
  const validate = (dto: Type, body: unknown) => pipe.transform(body, asBody(dto));
  const refusal = async (dto: Type, body: unknown): Promise<string> => {
    const error: unknown = await validate(dto, body).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid');
    return (error as DomainError).message;
  };

  it('refuses null for every field that is not Clearable, naming each, whatever optional decorator it has', async () => {
    expect(await refusal(Sample, { required: 1, loose: null })).toBe('loose must not be null');
    expect(await refusal(Sample, { required: 1, strict: null })).toBe('strict must not be null');
    expect(await refusal(Sample, { required: null, loose: null })).toBe('required must not be null; loose must not be null');
  });

  it('takes null for a Clearable field, and leaves omitted fields out', async () => {
    expect(await validate(Sample, { required: 1, clearable: null })).toEqual(
      Object.assign(new Sample(), { required: 1, clearable: null }),
    );
    expect(await validate(Sample, { required: 1 })).toEqual(Object.assign(new Sample(), { required: 1 }));
    expect(await validate(Sample, { required: 1, loose: 'x', strict: 'y', clearable: 'z' })).toMatchObject({
      loose: 'x',
      strict: 'y',
      clearable: 'z',
    });
  });

  it('leaves an unknown null field to the whitelist, which names it', async () => {
    expect(await refusal(Sample, { required: 1, admin: null })).toMatch(/admin should not exist/);
  });

  it('refuses null where the API does not define it', async () => {
    expect(await refusal(PostReviewDto, { rating: 5, body: null })).toBe('body must not be null');
    expect(await refusal(CreateTokenDto, { name: 't', scopes: ['read'], expiresInDays: null })).toBe(
      'expiresInDays must not be null',
    );
    expect(await refusal(CreateTokenDto, { name: 't', scopes: ['read'], policyId: null })).toBe('policyId must not be null');
    expect(await refusal(SaveVendorProfileDto, { slug: 'acme', displayName: 'Acme', orgSlug: null })).toBe(
      'orgSlug must not be null',
    );
    expect(await refusal(UpdateListingDto, { title: null })).toBe('title must not be null');
    expect(await refusal(UpdatePolicyDto, { active: null })).toBe('active must not be null');
  });

  it('takes null where it means "none": clearable profile, listing and policy fields', async () => {
    for (const [dto, body] of [
      [ChangeProfileDto, { name: null, avatarUrl: null }],
      [ChangeOrgProfileDto, { avatarUrl: null }],
      [SaveVendorProfileDto, { slug: 'acme', displayName: 'Acme', bio: null, website: null }],
      [
        UpdateListingDto,
        {
          serviceEndpoint: null,
          serviceProtocol: null,
          serviceTransport: null,
          perCallCents: null,
          capabilities: null,
          agentCard: null,
        },
      ],
      [
        UpdatePolicyDto,
        { maxPerPurchaseCents: null, dailyLimitCents: null, monthlyLimitCents: null, requireApprovalAboveCents: null },
      ],
      [
        CreatePolicyDto,
        { name: 'p', maxPerPurchaseCents: null, dailyLimitCents: null, monthlyLimitCents: null, requireApprovalAboveCents: null },
      ],
    ] as [Type, Record<string, unknown>][]) {
      expect({ dto: dto.name, validated: { ...((await validate(dto, body)) as object) } }).toEqual({
        dto: dto.name,
        validated: body,
      });
    }
  });

  it('checks bodies only: a query or a missing body is validated as before', async () => {
    expect(await pipe.transform({ required: '1' }, { type: 'query', metatype: Object })).toEqual({ required: '1' });
    expect(await refusal(Sample, undefined)).toMatch(/required/);
  });
});
