import * as t from 'io-ts';
import {
  COUNTRY_CODE,
  COUNTRY_CODE_RULE,
  LANGUAGE_RULE,
  PHONE_INPUT,
  PHONE_INPUT_RULE,
  type GetPhoneDetails,
} from './domain/phone-details.js';
import { PHONE_NUMBER_TYPES, SHORT_NUMBER_COSTS } from './domain/phone-number.js';
import { PhonePermission } from './domain/permissions.js';
import { matching, oneOf } from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, jsonOf, type Route } from '../../platform/http/route-table.js';

export interface PhoneRouteDependencies {
  readonly getPhoneDetails: GetPhoneDetails;
}

const numberDetails = t.exact(
  t.intersection([
    t.type({
      input: t.string,
      vanity: t.boolean,
      valid: t.boolean,
      possible: t.boolean,
      type: t.union([oneOf(PHONE_NUMBER_TYPES, 'a kind of number'), t.null]),
      countryCallingCode: t.string,
      country: t.union([t.string, t.null]),
      countryName: t.union([t.string, t.null]),
      timeZones: t.readonlyArray(t.string),
      carrier: t.union([t.string, t.null]),
      location: t.union([t.string, t.null]),
      nationalNumber: t.string,
      formats: t.strict({ e164: t.string, international: t.string, national: t.string, rfc3966: t.string }),
    }),
    t.partial({ extension: t.string }),
  ]),
);

/** A region's short number (911, 112): no calling code or international formats, which it has none of. */
const shortNumberDetails = t.strict({
  input: t.string,
  vanity: t.boolean,
  valid: t.literal(true),
  country: t.string,
  countryName: t.union([t.string, t.null]),
  timeZones: t.readonlyArray(t.string),
  shortNumber: t.strict({
    digits: t.string,
    emergency: t.boolean,
    cost: oneOf(SHORT_NUMBER_COSTS, 'what calling it costs'),
    carrierSpecific: t.boolean,
  }),
});

const phoneDetails = t.union([numberDetails, shortNumberDetails]);

export function phoneRoutes(deps: PhoneRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/phone/details',
      permission: PhonePermission.PhoneDetails,
      summary:
        'What the numbering plans say about a phone number: validity, type, country, place, carrier, time zones, formats; or a short number',
      query: {
        number: required(
          matching(PHONE_INPUT, PHONE_INPUT_RULE),
          'the number, international with a leading + (%2B) or as dialled in `country`',
        ),
        country: optional(
          matching(COUNTRY_CODE, COUNTRY_CODE_RULE),
          "where a number without + is dialled (ISO 3166-1 alpha-2); beside a number with +, it must be that number's own country",
        ),
        lang: optional(
          matching(/^[a-z]{2}$/, LANGUAGE_RULE),
          'the language to name location and carrier in (ISO 639-1), where the data has them in it; else English',
        ),
      },
      response: phoneDetails,
      // Whether the number can be read at all, and a country without a plan, are the domain's to say.
      errors: ['MissingQueryParameter', 'InvalidQueryParameter'],
      handle: async ({ query }) => jsonOf(await deps.getPhoneDetails.execute(query)),
    }),
  ];
}
