/** What other families and library users may use of phone numbers: its use case, what it takes and answers, its port and its permissions. */
export type { GetPhoneDetails, PhoneDetails, PhoneDetailsQuery } from './phone-details.js';
export type { PhoneNumbering } from './ports.js';
export { PhonePermission } from './permissions.js';
