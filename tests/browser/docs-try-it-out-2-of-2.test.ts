import { describeTryItOut } from '../support/try-it-out.js';

describeTryItOut(2, 2);
