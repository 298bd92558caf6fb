import { describeTryItOut, UTILITY_SECTIONS } from '../support/try-it-out.js';

describeTryItOut('the utilities', (section) => UTILITY_SECTIONS.includes(section));
