import { describeFuzzGate } from './fuzz-gate';

describeFuzzGate('pglite');
