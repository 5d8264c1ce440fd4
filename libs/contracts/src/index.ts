export * from './identity';
export * from './envelope';
