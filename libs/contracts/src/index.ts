export * from './identity';
export * from './envelope';
export * from './events';
export * from './webhook-events';
