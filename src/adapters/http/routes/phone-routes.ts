import * as E from 'fp-ts/lib/Either.js';
import { COUNTRY_CODE, COUNTRY_CODE_RULE, PHONE_INPUT, PHONE_INPUT_RULE, type GetPhoneDetails } from '../../../domain/phone/phone-details.js';
import { Permission } from '../../../domain/permissions.js';
import { matching, optional, required } from '../fields.js';
import { defineRoute, json, type Route } from '../route-table.js';

export interface PhoneRouteDependencies {
  readonly getPhoneDetails: GetPhoneDetails;
}

export function phoneRoutes(deps: PhoneRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/phone/details',
      permission: Permission.PhoneDetails,
      summary: 'What the numbering plans say about a phone number: validity, type, country and its time zones, formats',
      query: {
        number: required(matching(PHONE_INPUT, PHONE_INPUT_RULE), 'the number, international with a leading + (%2B) or as dialled in `country`'),
        country: optional(matching(COUNTRY_CODE, COUNTRY_CODE_RULE), 'where a number without + is dialled (ISO 3166-1 alpha-2); checked but unused for a number with +'),
      },
      headers: {},
      status: 200,
      produces: 'application/json',
      handle: async ({ query }) => E.map(json)(await deps.getPhoneDetails.execute(query)),
    }),
  ];
}
