import { Body, Controller, Get, Ip, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
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
  @ApiOperation({
    summary: 'Create an organization and its first admin',
    description:
      'The answer does not tell whether the e-mail already has an account: for a taken e-mail ' +
      'it is the same 201 with the same fields, but nothing is created, the access token is ' +
      'refused (401) wherever it is used, and the owner of the address is told by e-mail ' +
      '(at most once an hour) that someone tried to sign up with it. ' +
      'Limited per client address (AUTH_REGISTER_MAX_PER_ADDRESS per ' +
      'AUTH_REGISTER_WINDOW_SECONDS): above it, 429 with Retry-After.',
  })
  @ApiEnvelope({ status: 201, message: 'Organization registered', type: SessionDto })
  @ApiErrors(400, 403, 429)
  register(@Body() dto: RegisterDto, @Ip() address: string): Promise<SessionDto> {
    return this.auth.register(dto, address);
  }

  @Post('login')
  @Public()
  @ApiOperation({
    summary: 'Sign in with e-mail and password',
    description:
      'Attempts are limited per client address, per e-mail from one address, and per e-mail ' +
      'from addresses that have not signed in to it in the last 14 days (the limits of ' +
      'AUTH_LOGIN_*), so guesses by others never lock the owner out of their own address. ' +
      'Above a limit: 429 with Retry-After.',
  })
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
