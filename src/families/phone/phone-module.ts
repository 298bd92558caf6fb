import { ContainerModule } from 'inversify';
import { phoneRoutes } from './phone-routes.js';
import { LibphonenumberNumbering } from './adapters/libphonenumber-numbering.js';
import { GetPhoneDetails } from './domain/phone-details.js';
import { PhoneNumbering } from './domain/ports.js';
import { RouteContribution, useCasesIdentifier } from '../../composition/identifiers.js';

/** What the family offers a library user. */
export interface PhoneUseCases {
  readonly getPhoneDetails: GetPhoneDetails;
}
export const PhoneUseCases = useCasesIdentifier<PhoneUseCases>('PhoneUseCases');

/** What a phone number is: its country, type and formats, from libphonenumber's metadata. */
export const phoneModule = (): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(PhoneNumbering).toConstantValue(new LibphonenumberNumbering());
    bind(GetPhoneDetails)
      .toResolvedValue((numbering: PhoneNumbering) => new GetPhoneDetails(numbering), [PhoneNumbering])
      .inSingletonScope();
    bind(PhoneUseCases).toResolvedValue(
      (getPhoneDetails: GetPhoneDetails): PhoneUseCases => ({ getPhoneDetails }),
      [GetPhoneDetails],
    );
    bind(RouteContribution).toResolvedValue(
      (getPhoneDetails: GetPhoneDetails): RouteContribution => ({ routes: phoneRoutes({ getPhoneDetails }) }),
      [GetPhoneDetails],
    );
  });
