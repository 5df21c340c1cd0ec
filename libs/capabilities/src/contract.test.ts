import { describeCapabilityContract } from './testing.js';
import { CapabilityService } from './service.js';

describeCapabilityContract('file store under a temp CCCC_HOME', { make: (options) => new CapabilityService(options) });
