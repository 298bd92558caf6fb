import { describeTryItOut } from '../support/try-it-out.js';

describeTryItOut(1, 2);
