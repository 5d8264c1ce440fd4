import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { ApiErrors } from '../../common/api-errors.decorator';
import { CreateUserDto } from './dto/create-user.dto';
import { UserDto } from './dto/user.dto';
import { UsersService } from './users.service';

@ApiTags('Users')
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @Authenticated({ admin: true })
  @ApiEnvelope({ status: 201, message: 'User created', type: UserDto })
  @ApiErrors(400, 409)
  createUser(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateUserDto,
  ): Promise<UserDto> {
    return this.users.createMember(principal.organizationId, dto);
  }

  @Get()
  @Authenticated({ admin: true })
  @ApiEnvelope({ message: 'Users fetched', type: [UserDto] })
  listUsers(@CurrentPrincipal() principal: Principal): Promise<UserDto[]> {
    return this.users.list(principal.organizationId);
  }
}
