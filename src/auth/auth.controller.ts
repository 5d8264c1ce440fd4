import { Body, Controller, Get, Ip, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { ApiEnvelope } from '../common/envelope.decorators';
import { UserDto } from '../modules/users/dto/user.dto';
import { Authenticated, CurrentPrincipal, type Principal, Public } from './access';
import { AuthService } from './auth.service';
import { LoginDto, RegisterDto } from './dto/register.dto';
import { SessionDto } from './dto/session.dto';

@ApiTags('Auth')
@Controller('api/auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('register')
  @Public()
  @ApiEnvelope({ status: 201, message: 'Organization registered', type: SessionDto })
  @ApiErrors(400, 403, 409)
  register(@Body() dto: RegisterDto): Promise<SessionDto> {
    return this.auth.register(dto);
  }

  @Post('login')
  @Public()
  @ApiEnvelope({ message: 'Logged in', type: SessionDto })
  @ApiErrors(400, 401, 429)
  login(@Body() dto: LoginDto, @Ip() address: string): Promise<SessionDto> {
    return this.auth.login(dto, address);
  }

  @Get('me')
  @Authenticated()
  @ApiEnvelope({ message: 'Current user', type: UserDto })
  me(@CurrentPrincipal() principal: Principal): Promise<UserDto> {
    return this.auth.me(principal);
  }
}
