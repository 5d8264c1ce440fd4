import { NotFoundException } from '@nestjs/common';
import { Command, Option } from 'nest-commander';
import { ApiKeysService } from '../../modules/api-keys/api-keys.service';
import { CreateApiKeyDto } from '../../modules/api-keys/dto/create-api-key.dto';
import { UsersService } from '../../modules/users/users.service';
import { objectIdArgument, validatedOptions } from '../arguments';
import { operatorPrincipal } from '../operator-principal';
import { type CommandResult, SwitchboardCommand } from '../switchboard-command';
import { SwitchboardContext } from '../switchboard-context';

@Command({
  name: 'api-key:issue',
  description:
    "Issue an API key for an admin's organization (it acts as that admin); the key is printed once",
})
export class ApiKeyIssueCommand extends SwitchboardCommand {
  constructor(private readonly switchboard: SwitchboardContext) {
    super();
  }

  protected async execute(
    _: string[],
    options: { email?: string; name?: string },
  ): Promise<CommandResult> {
    const dto = await validatedOptions(CreateApiKeyDto, { name: options.name });
    const admin = await (await this.switchboard.get(UsersService)).findByEmail(options.email ?? '');
    // As POST /api/api-keys: only an admin issues keys.
    if (admin?.role !== 'admin') throw new NotFoundException('No admin with this e-mail');
    const principal = operatorPrincipal(admin.organizationId, admin.id);
    const created = await (await this.switchboard.get(ApiKeysService)).create(principal, dto);
    return {
      json: { organizationId: admin.organizationId, ...created },
      text: [
        `API key ${created._id} "${created.name}" issued for organization ${admin.organizationId}`,
        `Key (shown this once): ${created.key}`,
      ],
    };
  }

  @Option({ flags: '--email <email>', description: "an admin's e-mail", required: true })
  parseEmail(value: string): string {
    return value;
  }

  @Option({ flags: '--name <name>', description: 'what the key is for', required: true })
  parseName(value: string): string {
    return value;
  }
}

@Command({
  name: 'api-key:revoke',
  arguments: '<keyId>',
  description: 'Revoke an API key at once, in every process',
})
export class ApiKeyRevokeCommand extends SwitchboardCommand {
  constructor(private readonly switchboard: SwitchboardContext) {
    super();
  }

  protected async execute([id]: string[]): Promise<CommandResult> {
    const keyId = objectIdArgument('keyId', id);
    await (await this.switchboard.get(ApiKeysService)).revokeById(keyId);
    return { json: { _id: keyId, revoked: true }, text: [`API key ${keyId} revoked`] };
  }
}
