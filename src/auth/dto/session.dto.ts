import { ApiProperty } from '@nestjs/swagger';
import { UserDto } from '../../modules/users/dto/user.dto';

export class SessionDto {
  @ApiProperty({
    description: 'Send as Authorization: Bearer <accessToken>. HS256 JWT, short-lived.',
  })
  accessToken!: string;

  @ApiProperty({ type: UserDto })
  user!: UserDto;
}
