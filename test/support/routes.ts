import type { INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ACCESS_METADATA, type AccessPolicy } from '../../src/auth/access';

export interface RouteInfo {
  method: string;
  /** Express-style path, e.g. /api/api-keys/:id */
  path: string;
  handler: string;
  controller: string;
  policy: AccessPolicy | undefined;
}

const join = (...parts: string[]) =>
  `/${parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/')}`;

/** Every route the app registered, with the access policy the global guard will apply. */
export function listRoutes(app: INestApplication): RouteInfo[] {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  return discovery.getControllers().flatMap((wrapper) => {
    const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
    if (!controller || !wrapper.instance) return [];
    const prefixes = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat();
    const prototype = Object.getPrototypeOf(wrapper.instance) as Record<string, unknown>;
    return scanner.getAllMethodNames(prototype).flatMap((name) => {
      const handler = prototype[name] as () => unknown;
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (paths === undefined) return [];
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const policy = reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_METADATA, [
        handler,
        controller,
      ]);
      return prefixes.flatMap((prefix) =>
        [paths].flat().map((path) => ({
          method,
          path: join(prefix, path),
          handler: name,
          controller: controller.name,
          policy,
        })),
      );
    });
  });
}
