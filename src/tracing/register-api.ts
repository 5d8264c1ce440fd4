// Imported first by main.ts: the instrumentations must patch modules before anything loads them.
import { startTracing } from './start-tracing';

startTracing(process.env, 'switchboard-api');
