import { Injectable } from '@nestjs/common';
import { Database } from '../../database';
import { organizations, type OrganizationRow } from './organizations.schema';

@Injectable()
export class OrganizationsRepository {
  constructor(private readonly database: Database) {}

  async create(name: string): Promise<OrganizationRow> {
    const [row] = await this.database.db.insert(organizations).values({ name }).returning();
    return row;
  }
}
