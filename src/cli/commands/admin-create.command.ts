import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { Command, Option } from 'nest-commander';
import { RegisterDto } from '../../auth/dto/register.dto';
import { toUserDto } from '../../modules/users/users.mapper';
import { UsersService } from '../../modules/users/users.service';
import { validatedOptions } from '../arguments';
import { type CommandResult, SwitchboardCommand } from '../switchboard-command';
import { SwitchboardContext } from '../switchboard-context';

interface AdminCreateOptions {
  organization?: string;
  name?: string;
  email?: string;
  passwordStdin?: boolean;
}

@Command({
  name: 'admin:create',
  description:
    'Create an organization and its first admin (whatever AUTH_ALLOW_SIGNUP says). The ' +
    'password is read from stdin with --password-stdin, else generated and printed once.',
})
export class AdminCreateCommand extends SwitchboardCommand {
  constructor(private readonly switchboard: SwitchboardContext) {
    super();
  }

  protected async execute(_: string[], options: AdminCreateOptions): Promise<CommandResult> {
    const generated = options.passwordStdin ? undefined : randomBytes(18).toString('base64url');
    const password = generated ?? (await text(process.stdin)).replace(/\r?\n$/, '');
    // Sign-up's own rules (lengths, e-mail form).
    const dto = await validatedOptions(RegisterDto, {
      organizationName: options.organization,
      name: options.name,
      email: options.email,
      password,
    });
    const users = await this.switchboard.get(UsersService);
    const user = toUserDto(await users.createOrganizationWithAdmin(dto.organizationName, dto));
    return {
      json: { organizationId: user.organizationId, user, ...(generated ? { password } : {}) },
      text: [
        `Organization ${user.organizationId} created with admin ${user._id} <${user.email}>`,
        ...(generated ? [`Password (shown this once): ${generated}`] : []),
      ],
    };
  }

  @Option({ flags: '--organization <name>', description: 'organization name', required: true })
  parseOrganization(value: string): string {
    return value;
  }

  @Option({ flags: '--name <name>', description: "the admin's name", required: true })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--email <email>', description: "the admin's e-mail", required: true })
  parseEmail(value: string): string {
    return value;
  }

  @Option({ flags: '--password-stdin', description: 'read the password from stdin' })
  parsePasswordStdin(): boolean {
    return true;
  }
}
