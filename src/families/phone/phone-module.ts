import { ContainerModule } from 'inversify';
import { phoneRoutes } from './phone-routes.js';
import { LibphonenumberNumbering } from './adapters/libphonenumber-numbering.js';
import { GetPhoneDetails } from './domain/phone-details.js';
import { PhoneNumbering } from './domain/ports.js';
import { RouteContribution, useCasesIdentifier } from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';

/** What the family offers a library user. */
export interface PhoneUseCases {
  readonly getPhoneDetails: GetPhoneDetails;
}
export const PhoneUseCases = useCasesIdentifier<PhoneUseCases>('PhoneUseCases');

/** What a phone number is: its country, type and formats, from libphonenumber's metadata. */
export const phoneModule = (): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    constant(PhoneNumbering, new LibphonenumberNumbering());
    provide(PhoneUseCases, [PhoneNumbering], (numbering) => ({
      getPhoneDetails: new GetPhoneDetails(numbering),
    })).inSingletonScope();
    provide(RouteContribution, [PhoneUseCases], (useCases) => ({
      section: { name: 'Phone numbers', description: 'Parse, validate and format a phone number (libphonenumber).' },
      routes: phoneRoutes(useCases),
    }));
  });
