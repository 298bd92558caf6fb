import { permissionCatalogueOf } from '../../src/composition/families.js';

/** Every permission the service's families and the platform name: what the server's use cases are given. */
export const SERVICE_PERMISSIONS = permissionCatalogueOf();
