import { describeFuzzGate } from './fuzz-gate';

describeFuzzGate('postgres');
