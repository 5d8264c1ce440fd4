import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { APP_CONFIG, type AppConfig } from '../config';
import { ApiKeysModule } from '../modules/api-keys/api-keys.module';
import { NotificationsModule } from '../modules/notifications/notifications.module';
import { UsersModule } from '../modules/users/users.module';
import { AccessGuard } from './access.guard';
import { ApiKeyStrategy } from './api-key.strategy';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { jwtKey } from './jwt-key';
import { JwtStrategy } from './jwt.strategy';
import { LoginThrottle } from './login-throttle';
import { RegisterThrottle } from './register-throttle';

@Module({
  imports: [
    PassportModule,
    UsersModule,
    ApiKeysModule,
    NotificationsModule,
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        privateKey: jwtKey(config),
        signOptions: {
          algorithm: 'HS256',
          expiresIn: config.auth.jwtTtlSeconds,
          issuer: config.auth.jwtIssuer,
          audience: config.auth.jwtAudience,
        },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    JwtStrategy,
    ApiKeyStrategy,
    LoginThrottle,
    RegisterThrottle,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
})
export class AuthModule {}
