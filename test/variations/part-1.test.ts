import { describeVariations } from './suite.js';

describeVariations(0, 2);
