import { applyDecorators, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { JobName } from './jobs';

/** Discovery key; JobHandlerRegistry finds the marked providers at bootstrap. */
export const JobHandlerMarker = DiscoveryService.createDecorator<JobName>();

/** Marks a provider (implementing HandlesJob<name>) as the one handler of a job name. */
export const JobHandler = (name: JobName): ClassDecorator =>
  applyDecorators(Injectable(), JobHandlerMarker(name));
