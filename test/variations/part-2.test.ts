import { describeVariations } from './suite.js';

describeVariations(1, 2);
