import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** The seed's list page, `{ docs, page, limit, totalPages, totalDocs }`, for one item type. */
export function DocsPageDto<T>(item: Type<T>, order: string) {
  class DocsPage {
    @ApiProperty({ type: [item], description: order })
    docs!: T[];

    @ApiProperty({ example: 1 })
    page!: number;

    @ApiProperty({ example: 10 })
    limit!: number;

    @ApiProperty({ example: 3 })
    totalPages!: number;

    @ApiProperty({ example: 21 })
    totalDocs!: number;
  }
  return DocsPage;
}

/** The page of `rows` as DocsPageDto answers it. */
export function docsPage<T>(docs: T[], total: number, page: number, limit: number) {
  return { docs, page, limit, totalPages: Math.ceil(total / limit), totalDocs: total };
}
